/**
 * LSP \`WorkspaceEdit\`s applied to files in memory: the schema tools take them in, and applying
 * \`changes\` and \`documentChanges\` (text edits in UTF-16 positions, create / rename / delete) to a
 * file state. \`preview_edit\`/\`simulate_chain\` speculate with it; the code-action tools apply a
 * server's edits with it before writing through \`ts/workspace/writes.ts\`.
 */
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import type { ToolContext } from '../workspace/context';
import { MAX_WRITE_BYTES } from '../workspace/writes';
import { locate } from './overlay';
import { ToolInputError } from './registry';

const position = z.object({ line: z.number().int().min(0), character: z.number().int().min(0) });
const textEdit = z.object({ range: z.object({ start: position, end: position }), newText: z.string() });
const uri = z.string().min(1).describe('A file:// URI, or a path relative to the repository');
const fileOptions = z.object({ overwrite: z.boolean().optional(), ignoreIfExists: z.boolean().optional() }).optional();
const documentChange = z.union([
  z.object({ textDocument: z.object({ uri, version: z.number().int().nullable().optional() }), edits: z.array(textEdit) }),
  z.object({ kind: z.literal('create'), uri, options: fileOptions }),
  z.object({ kind: z.literal('rename'), oldUri: uri, newUri: uri, options: fileOptions }),
  z.object({ kind: z.literal('delete'), uri, options: z.object({ recursive: z.boolean().optional(), ignoreIfNotExists: z.boolean().optional() }).optional() }),
]);
/** An LSP `WorkspaceEdit`: `changes` (uri → text edits) and/or `documentChanges` (edits and file operations, in order). */
export const workspaceEdit = z
  .object({ changes: z.record(z.string(), z.array(textEdit)).optional(), documentChanges: z.array(documentChange).optional() })
  .describe('An LSP WorkspaceEdit: changes (uri → TextEdit[]) and/or documentChanges (TextDocumentEdit, CreateFile, RenameFile, DeleteFile)');
/** A parsed WorkspaceEdit. */
export type WorkspaceEdit = z.infer<typeof workspaceEdit>;
/** One LSP TextEdit. */
export type TextEdit = z.infer<typeof textEdit>;

/** Files as a speculation left them, by repository-relative path (null: deleted). Unlisted files are as the start state has them. */
export type FileState = Map<string, Buffer | null>;

/** A repository-relative path for a WorkspaceEdit uri, inside the calling repository. */
function relOf(ctx: ToolContext, raw: string): string {
  let p = raw;
  if (raw.startsWith('file:')) {
    try {
      p = fileURLToPath(raw);
    } catch {
      throw new ToolInputError('invalid_argument', `${JSON.stringify(raw)} is not a valid file URI`);
    }
  } else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw)) {
    throw new ToolInputError('invalid_argument', `${JSON.stringify(raw)}: only file:// URIs (or repository paths) can be previewed`);
  }
  const where = locate(ctx, p);
  if (where.root !== ctx.root) throw new ToolInputError('invalid_argument', `${raw} belongs to another repository (${where.root}); preview one repository's edit at a time (repo=… picks it)`);
  return where.rel;
}

/** Offsets of each line's start (LSP lines end at \n; a \r before it stays part of the line). */
function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

/** Applies LSP text edits (UTF-16 positions, as JavaScript strings count) to `text`. */
export function applyTextEdits(rel: string, text: string, edits: readonly TextEdit[]): string {
  const starts = lineStarts(text);
  const offset = (p: { line: number; character: number }): number => {
    if (p.line >= starts.length) return text.length;
    const lineEnd = p.line + 1 < starts.length ? starts[p.line + 1]! - 1 : text.length;
    return Math.min(starts[p.line]! + p.character, lineEnd);
  };
  const spans = edits.map((e) => ({ from: offset(e.range.start), to: offset(e.range.end), text: e.newText })).sort((a, b) => a.from - b.from || a.to - b.to);
  for (const s of spans) if (s.to < s.from) throw new ToolInputError('invalid_argument', `${rel}: an edit's range ends before it starts`);
  for (let i = 1; i < spans.length; i++) {
    if (spans[i]!.from < spans[i - 1]!.to) throw new ToolInputError('invalid_argument', `${rel}: two edits overlap (LSP TextEdits of one document must not overlap)`);
  }
  let out = '';
  let at = 0;
  for (const s of spans) {
    out += text.slice(at, s.from) + s.text;
    at = s.to;
  }
  return out + text.slice(at);
}

/** Applies a WorkspaceEdit to `state` (read through `read` for files it does not hold); returns the paths it touched. */
export function applyEdit(ctx: ToolContext, state: FileState, read: (rel: string) => Buffer | null, edit: WorkspaceEdit): string[] {
  if (!edit.changes && !edit.documentChanges) throw new ToolInputError('invalid_argument', 'the WorkspaceEdit has neither changes nor documentChanges');
  const touched = new Set<string>();
  const current = (rel: string): Buffer | null => (state.has(rel) ? state.get(rel)! : read(rel));
  const editText = (raw: string, edits: readonly TextEdit[]): void => {
    const rel = relOf(ctx, raw);
    const now = current(rel);
    if (now === null) throw new ToolInputError('not_found', `${rel} does not exist (create it first with a CreateFile operation)`);
    const after = Buffer.from(applyTextEdits(rel, now.toString('utf8'), edits), 'utf8');
    if (after.length > MAX_WRITE_BYTES) throw new ToolInputError('invalid_argument', `${rel} would be larger than ${MAX_WRITE_BYTES} bytes`);
    state.set(rel, after);
    touched.add(rel);
  };
  for (const [raw, edits] of Object.entries(edit.changes ?? {})) editText(raw, edits);
  for (const change of edit.documentChanges ?? []) {
    if ('textDocument' in change) {
      editText(change.textDocument.uri, change.edits);
    } else if (change.kind === 'create') {
      const rel = relOf(ctx, change.uri);
      if (current(rel) !== null && !change.options?.overwrite) {
        if (change.options?.ignoreIfExists) continue;
        throw new ToolInputError('conflict', `CreateFile ${rel}: the file exists (options.overwrite or ignoreIfExists decide)`);
      }
      state.set(rel, Buffer.alloc(0));
      touched.add(rel);
    } else if (change.kind === 'rename') {
      const from = relOf(ctx, change.oldUri);
      const to = relOf(ctx, change.newUri);
      const content = current(from);
      if (content === null) throw new ToolInputError('not_found', `RenameFile ${from}: the file does not exist`);
      if (current(to) !== null && !change.options?.overwrite) {
        if (change.options?.ignoreIfExists) continue;
        throw new ToolInputError('conflict', `RenameFile ${from} → ${to}: ${to} exists (options.overwrite or ignoreIfExists decide)`);
      }
      state.set(from, null);
      state.set(to, content);
      touched.add(from).add(to);
    } else {
      const rel = relOf(ctx, change.uri);
      if (current(rel) === null) {
        if (change.options?.ignoreIfNotExists) continue;
        throw new ToolInputError('not_found', `DeleteFile ${rel}: the file does not exist`);
      }
      state.set(rel, null);
      touched.add(rel);
    }
  }
  return [...touched].sort();
}
