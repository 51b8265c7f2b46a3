/**
 * The edit family: exact string edits of any text file, whole-file writes, and a symbol's source
 * replaced by id. Every write obeys the rules of `ts/workspace/writes.ts` (inside the repository,
 * drift guard, parse gate, atomic, index updated before the answer).
 */
import { z } from 'zod';
import type { GetSymbolResult, NodeJson } from '../engine/engine';
import { target } from './common';
import { callAnother, defineTool, repoNameOf, ToolInputError } from './registry';
import type { ToolContext } from '../workspace/context';
import {
  BatchJournal,
  blobSha,
  checkBase,
  commitWrites,
  faultAfterWrite,
  isBinary,
  resolveWritable,
  syncIndex,
  type PlannedWrite,
  type WriteTarget,
  type WrittenFile,
} from '../workspace/writes';

/** Most lines of a diff an answer carries. */
const MAX_DIFF_LINES = 400;

/** Arguments every write tool takes. */
const writeOptions = {
  base_sha: z
    .string()
    .optional()
    .describe("Refuse with conflict unless the file's git blob SHA-1 is this (the new_sha of your last write, or git hash-object)"),
  dry_run: z.boolean().optional().describe('Check everything and return the diff without writing'),
  allow_parse_errors: z.boolean().optional().describe('Write even if the file gains syntax errors (refused by default)'),
};

/** The file's line ending: CRLF when it has any CRLF line ending, else LF. */
function eolOf(text: string): '\r\n' | '\n' {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

/** `text` with every line ending made `eol`. */
function withEol(text: string, eol: '\r\n' | '\n'): string {
  const lf = text.replace(/\r\n/g, '\n');
  return eol === '\n' ? lf : lf.replace(/\n/g, '\r\n');
}

/** 1-based line numbers at which `needle` starts in `haystack`. */
function occurrenceLines(haystack: string, needle: string, limit = 20): number[] {
  const lines: number[] = [];
  let from = 0;
  for (;;) {
    const at = haystack.indexOf(needle, from);
    if (at < 0 || lines.length >= limit) return lines;
    lines.push(haystack.slice(0, at).split('\n').length);
    from = at + Math.max(1, needle.length);
  }
}

/** How often `needle` occurs in `haystack`, not overlapping. */
function countOccurrences(haystack: string, needle: string): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count++;
  return count;
}

/** How many leading and trailing lines `a` and `b` share (not overlapping). */
function commonEnds(a: readonly string[], b: readonly string[]): { head: number; tail: number } {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  return { head, tail };
}

/**
 * Notes a write in the session's edit history (`get_symbol_history`): the file, and the symbols
 * whose lines changed (`symbols` when the tool knows them, else those the new lines overlap).
 */
function recordEdits(ctx: ToolContext, tool: string, written: WrittenFile, before: string, after: string, symbols?: readonly string[]): void {
  const store = ctx.session?.store;
  if (!store) return;
  store.recordEdit('file', written.path, written.path, tool);
  let ids = symbols;
  if (ids === undefined) {
    const b = after.split('\n');
    const { head, tail } = commonEnds(before.split('\n'), b);
    const [from, to] = [head + 1, Math.max(head + 1, b.length - tail)];
    // The write went to the disk: the base index has it (an overlay view's engine would not), and
    // a file the index leaves out (an unsupported type) has no symbols to note.
    let symbolsNow: NodeJson[];
    try {
      symbolsNow = (ctx.overlay?.baseEngine ?? ctx.engine).fileSymbols(ctx.repo, written.path);
    } catch {
      symbolsNow = [];
    }
    ids = symbolsNow.filter((s) => s.start_line <= to && s.end_line >= from).map((s) => s.id);
  }
  for (const id of ids) store.recordEdit('symbol', id, written.path, tool);
}

/**
 * A unified diff of `before` → `after` as one hunk around the changed lines (the common head and
 * tail are left out), at most MAX_DIFF_LINES lines.
 */
export function unifiedDiff(rel: string, before: string, after: string, created: boolean): { diff: string; truncated: boolean } {
  const a = before === '' && created ? [] : before.split('\n');
  const b = after.split('\n');
  const { head, tail } = commonEnds(a, b);
  const context = 3;
  const start = Math.max(0, head - context);
  const aEnd = Math.min(a.length, a.length - tail + context);
  const bEnd = Math.min(b.length, b.length - tail + context);
  const lines = [`--- ${created ? '/dev/null' : `a/${rel}`}`, `+++ b/${rel}`, `@@ -${a.length === 0 ? 0 : start + 1},${aEnd - start} +${start + 1},${bEnd - start} @@`];
  for (let i = start; i < head; i++) lines.push(` ${a[i]}`);
  for (let i = head; i < a.length - tail; i++) lines.push(`-${a[i]}`);
  for (let i = head; i < b.length - tail; i++) lines.push(`+${b[i]}`);
  for (let i = a.length - tail; i < aEnd; i++) lines.push(` ${a[i]}`);
  const truncated = lines.length > MAX_DIFF_LINES;
  return { diff: `${lines.slice(0, MAX_DIFF_LINES).join('\n').replace(/\r/g, '')}\n`, truncated };
}

/** The answer of a single-file write. */
function answer(written: WrittenFile, dryRun: boolean, before: string, after: string, extra: Record<string, unknown>): Record<string, unknown> {
  const { diff, truncated } = unifiedDiff(written.path, before, after, written.created);
  return {
    status: dryRun ? 'would_apply' : 'applied',
    ...written,
    ...extra,
    diff,
    ...(truncated ? { diff_truncated: true } : {}),
    reindexed: !dryRun,
  };
}

/** Refuses a binary file or bytes that are not UTF-8 text. */
function textOf(t: WriteTarget): string {
  if (t.current === null) return '';
  if (isBinary(t.current)) throw new ToolInputError('invalid_argument', `${t.rel} is a binary file; the edit tools change text files only`);
  return t.current.toString('utf8');
}

/** The answer when the new content equals the old: nothing is written. */
function unchanged(t: WriteTarget): Record<string, unknown> {
  return { status: 'no_change', path: t.rel, new_sha: blobSha(t.current ?? Buffer.alloc(0)), reindexed: false };
}

async function commitOne(ctx: ToolContext, plan: PlannedWrite, args: { dry_run?: boolean; allow_parse_errors?: boolean }): Promise<WrittenFile> {
  const [written] = await commitWrites(ctx, [plan], { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  return written!;
}

/** The edit family. */
export const editTools = [
  defineTool({
    name: 'edit_file',
    category: 'edit',
    effect: 'local_write',
    description:
      'Replace an exact string in any text file of the repository (source, docs, config). old_string must occur once unless replace_all; ' +
      'LF and CRLF are matched either way (eol_normalized). Returns new_sha for the next edit and a diff; dry_run previews.',
    input: {
      path: z.string().describe('Repository-relative path'),
      old_string: z.string().min(1).describe('The exact text to replace (whitespace included)'),
      new_string: z.string().describe('The text to put in its place'),
      replace_all: z.boolean().optional().describe('Replace every occurrence instead of requiring exactly one'),
      ...writeOptions,
    },
    handler: async (ctx, args) => {
      const t = resolveWritable(ctx.root, args.path, { create: false });
      checkBase(t, args.base_sha);
      const before = textOf(t);
      let oldString = args.old_string;
      let newString = args.new_string;
      let eolNormalized = false;
      let count = countOccurrences(before, oldString);
      if (count === 0) {
        // Written with the other line ending than the file's: match and write in the file's.
        const eol = eolOf(before);
        const converted = withEol(oldString, eol);
        if (converted !== oldString && countOccurrences(before, converted) > 0) {
          oldString = converted;
          newString = withEol(newString, eol);
          eolNormalized = true;
          count = countOccurrences(before, oldString);
        }
      }
      if (count === 0) {
        const firstLine = args.old_string.split('\n').find((l) => l.trim() !== '')?.trim() ?? '';
        const near = firstLine === '' ? [] : occurrenceLines(before, firstLine, 5);
        throw new ToolInputError(
          'not_found',
          `old_string does not occur in ${t.rel}` +
            (near.length > 0 ? `; its first line does, at line${near.length > 1 ? 's' : ''} ${near.join(', ')}: check the lines after it (whitespace counts)` : '') +
            '. Read the file (read_file) and copy the text exactly',
        );
      }
      if (count > 1 && !args.replace_all) {
        throw new ToolInputError(
          'ambiguous',
          `old_string occurs ${count} times in ${t.rel} (lines ${occurrenceLines(before, oldString).join(', ')}): add surrounding lines to make it unique, or pass replace_all: true`,
        );
      }
      const after = args.replace_all ? before.split(oldString).join(newString) : before.replace(oldString, () => newString);
      if (after === before) return unchanged(t);
      const written = await commitOne(ctx, { target: t, after: Buffer.from(after, 'utf8') }, args);
      if (!args.dry_run) recordEdits(ctx, 'edit_file', written, before, after);
      return answer(written, args.dry_run === true, before, after, { replacements: args.replace_all ? count : 1, ...(eolNormalized ? { eol_normalized: true } : {}) });
    },
  }),
  defineTool({
    name: 'write_file',
    category: 'edit',
    effect: 'local_write',
    description:
      'Create a file, or overwrite one whole, inside the repository (folders are created). Pass base_sha to overwrite only the version you read; ' +
      'create_only refuses an existing file. Returns new_sha and a diff; dry_run previews.',
    input: {
      path: z.string().describe('Repository-relative path'),
      content: z.string().describe('The whole new content'),
      create_only: z.boolean().optional().describe('Refuse (conflict) if the file already exists'),
      ...writeOptions,
    },
    handler: async (ctx, args) => {
      const t = resolveWritable(ctx.root, args.path, { create: true });
      if (args.create_only && t.current !== null) {
        throw new ToolInputError('conflict', `${t.rel} already exists (sha ${blobSha(t.current)}); drop create_only to overwrite it, with that sha as base_sha`);
      }
      checkBase(t, args.base_sha);
      const before = textOf(t);
      if (t.current !== null && before === args.content) return unchanged(t);
      const written = await commitOne(ctx, { target: t, after: Buffer.from(args.content, 'utf8') }, args);
      if (!args.dry_run) recordEdits(ctx, 'write_file', written, before, args.content);
      return answer(written, args.dry_run === true, before, args.content, {});
    },
  }),
  defineTool({
    name: 'edit_symbol',
    category: 'edit',
    effect: 'local_write',
    description:
      "Replace a symbol's source (its lines, first to last) by id, without reading the file first. old_source, when given, must match the current source " +
      '(conflict otherwise). The new source is written with the file’s line endings. Returns new_sha and a diff; dry_run previews.',
    input: {
      id: target,
      new_source: z.string().describe("The symbol's complete new source (signature and body)"),
      old_source: z.string().optional().describe('The source you expect to replace; refused with conflict if it differs'),
      ...writeOptions,
    },
    handler: async (ctx, args) => {
      const locate = (): GetSymbolResult['node'] => {
        const s = (ctx.engine.query('get_symbol', { id: args.id }, { repo: ctx.repo }) as GetSymbolResult).node;
        if (!s.file_path || s.start_line === 0) throw new ToolInputError('invalid_argument', `${s.id} has no source in this repository (external or file-less)`);
        return s;
      };
      // The span must be the file's current one: bring the index up to date with the file first.
      await syncIndex(ctx, [locate().file_path]);
      const s = locate();
      const t = resolveWritable(ctx.root, s.file_path, { create: false });
      checkBase(t, args.base_sha);
      const before = textOf(t);
      const eol = eolOf(before);
      const lines = before.split('\n');
      if (s.end_line > lines.length) throw new ToolInputError('stale', `${s.id} spans lines ${s.start_line}-${s.end_line} but ${t.rel} has ${lines.length}: re-index and retry`);
      const current = lines.slice(s.start_line - 1, s.end_line).join('\n');
      const normal = (text: string): string => text.replace(/\r\n/g, '\n').replace(/\s+$/, '');
      if (args.old_source !== undefined && normal(args.old_source) !== normal(current)) {
        throw new ToolInputError(
          'conflict',
          `the source of ${s.id} (${t.rel}:${s.start_line}-${s.end_line}) is not old_source any more: read it again (get_symbol_source) and redo the edit`,
        );
      }
      // The replaced lines keep what ended the last one (a CR of a CRLF file is part of the line).
      const lastEnd = current.endsWith('\r') ? '\r' : '';
      const replacement = withEol(args.new_source.replace(/\r?\n$/, ''), eol) + lastEnd;
      const after = [...lines.slice(0, s.start_line - 1), replacement, ...lines.slice(s.end_line)].join('\n');
      if (after === before) return unchanged(t);
      const written = await commitOne(ctx, { target: t, after: Buffer.from(after, 'utf8') }, args);
      if (!args.dry_run) recordEdits(ctx, 'edit_symbol', written, before, after, [s.id]);
      return answer(written, args.dry_run === true, before, after, {
        symbol: { id: s.id, start_line: s.start_line, end_line: s.end_line, new_end_line: s.start_line + replacement.split('\n').length - 1 },
        ...(eol === '\r\n' && !args.new_source.includes('\r\n') && args.new_source.includes('\n') ? { eol_normalized: true } : {}),
      });
    },
  }),
  defineTool({
    name: 'batch_edit',
    category: 'edit',
    effect: 'local_write',
    description:
      'Apply several edits (file: exact replacement, write: whole file, symbol: a symbol\'s source) as one: files are created first, the rest in dependency order ' +
      '(a file before the files that import it), re-indexing between steps; if any step is refused every earlier one is undone. dry_run previews each step against the files as they are.',
    input: {
      changes: z
        .array(
          z.object({
            operation: z.enum(['file', 'write', 'symbol']).describe('file: edit_file, write: write_file, symbol: edit_symbol'),
            path: z.string().optional().describe('file / write: repository-relative path'),
            id: z.string().optional().describe('symbol: the symbol id'),
            old_string: z.string().optional(),
            new_string: z.string().optional(),
            replace_all: z.boolean().optional(),
            content: z.string().optional(),
            create_only: z.boolean().optional(),
            new_source: z.string().optional(),
            old_source: z.string().optional(),
            base_sha: z.string().optional(),
          }),
        )
        .min(1)
        .max(100)
        .describe('The edits, each with the arguments of its tool'),
      dry_run: z.boolean().optional().describe('Preview every step against the files as they are now, writing nothing'),
      allow_parse_errors: z.boolean().optional().describe('Write even if a file gains syntax errors'),
    },
    handler: async (ctx, args) => batch(ctx, args),
  }),
];

/** The tool behind each batch operation. */
const BATCH_TOOLS = { file: 'edit_file', write: 'write_file', symbol: 'edit_symbol' } as const;

type BatchChange = {
  operation: keyof typeof BATCH_TOOLS;
  path?: string | undefined;
  id?: string | undefined;
  [key: string]: unknown;
};

/** The repository-relative path a change writes (a symbol's file for `symbol`). */
function pathOf(ctx: ToolContext, change: BatchChange, index: number): string {
  if (change.operation === 'symbol') {
    if (!change.id) throw new ToolInputError('invalid_argument', `changes[${index}]: a symbol change needs id`);
    const s = (ctx.engine.query('get_symbol', { id: change.id }, { repo: ctx.repo }) as GetSymbolResult).node;
    if (!s.file_path) throw new ToolInputError('invalid_argument', `changes[${index}]: ${s.id} has no source in this repository`);
    return s.file_path;
  }
  if (!change.path) throw new ToolInputError('invalid_argument', `changes[${index}]: a ${change.operation} change needs path`);
  return resolveWritable(ctx.root, change.path, { create: change.operation === 'write' }).rel;
}

/**
 * The order to apply changes in: files that do not exist yet first, then each file before the
 * files among them that import it (given order otherwise, and inside a cycle).
 */
function dependencyOrder(ctx: ToolContext, changes: readonly BatchChange[], paths: readonly string[]): number[] {
  const repo = repoNameOf(ctx);
  const created = (i: number): boolean => changes[i]!.operation === 'write' && ctx.engine.getNode(ctx.repo, `${repo}/${paths[i]}`) === null;
  const placed = importOrder(ctx, paths);
  const rank = (i: number): [number, number, number] => [created(i) ? 0 : 1, placed.indexOf(paths[i]!), i];
  return changes
    .map((_, i) => i)
    .sort((a, b) => {
      const [x, y] = [rank(a), rank(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
}

/**
 * `paths` (repository-relative files, repeats allowed) in import order: each file after the files
 * among them it imports; first-seen order otherwise and inside a cycle. Files not in the graph keep
 * their place.
 */
export function importOrder(ctx: ToolContext, paths: readonly string[]): string[] {
  const repo = repoNameOf(ctx);
  const files = [...new Set(paths)];
  const imports = new Map<string, Set<string>>();
  for (const file of files) {
    const targets = new Set<string>();
    // A file the batch creates is not in the graph yet: nothing to order it by.
    if (ctx.engine.getNode(ctx.repo, `${repo}/${file}`) === null) continue;
    for (const e of ctx.engine.edges(ctx.repo, `${repo}/${file}`, { direction: 'out', kinds: ['imports'] })) {
      const to = ctx.engine.getNode(ctx.repo, e.to)?.path;
      if (to && to !== file && files.includes(to)) targets.add(to);
    }
    imports.set(file, targets);
  }
  // Depth-first: a file after everything it imports (cycles broken where they are met).
  const placed: string[] = [];
  const visiting = new Set<string>();
  const visit = (file: string): void => {
    if (placed.includes(file) || visiting.has(file)) return;
    visiting.add(file);
    for (const dep of imports.get(file) ?? []) visit(dep);
    visiting.delete(file);
    placed.push(file);
  };
  for (const file of files) visit(file);
  return placed;
}

async function batch(ctx: ToolContext, args: { changes: BatchChange[]; dry_run?: boolean | undefined; allow_parse_errors?: boolean | undefined }): Promise<Record<string, unknown>> {
  const paths = args.changes.map((c, i) => pathOf(ctx, c, i));
  const order = dependencyOrder(ctx, args.changes, paths);
  const stepArgs = (c: BatchChange): Record<string, unknown> => {
    const { operation: _operation, ...rest } = c;
    return { ...rest, ...(args.allow_parse_errors ? { allow_parse_errors: true } : {}) };
  };
  if (args.dry_run) {
    const previews = [];
    for (const i of order) previews.push({ step: i, ...((await callAnother(ctx, BATCH_TOOLS[args.changes[i]!.operation], { ...stepArgs(args.changes[i]!), dry_run: true })) as object) });
    return { status: 'would_apply', order, note: 'each change was previewed against the files as they are now, not after the changes before it', results: previews };
  }
  const journal = new BatchJournal(ctx.root);
  const results: Record<string, unknown>[] = [];
  try {
    for (const [done, i] of order.entries()) {
      const change = args.changes[i]!;
      const target = resolveWritable(ctx.root, paths[i]!, { create: change.operation === 'write' });
      journal.track(target);
      let result: Record<string, unknown>;
      try {
        result = (await callAnother(ctx, BATCH_TOOLS[change.operation], stepArgs(change))) as Record<string, unknown>;
      } catch (error) {
        const code = (error as { code?: string }).code ?? 'internal';
        const message = error instanceof Error ? error.message : String(error);
        const undone = journal.rollback();
        await syncIndex(ctx, undone);
        throw new ToolInputError(
          code,
          `changes[${i}] (${BATCH_TOOLS[change.operation]} ${paths[i]}) was refused: ${message}. ` +
            (undone.length > 0 ? `The ${done} change${done === 1 ? '' : 's'} before it ${done === 1 ? 'was' : 'were'} undone (${undone.join(', ')}); ` : '') +
            'nothing of the batch is written',
        );
      }
      if (typeof result.new_sha === 'string') journal.wrote(target.abs, result.new_sha);
      results.push({ step: i, ...result });
      faultAfterWrite(done + 1);
    }
  } finally {
    journal.close();
  }
  const finalSha = new Map<string, unknown>();
  for (const r of results) finalSha.set(String(r.path), r.new_sha);
  return {
    status: 'applied',
    order,
    files: [...finalSha.entries()].map(([path, new_sha]) => ({ path, new_sha })),
    results,
  };
}

