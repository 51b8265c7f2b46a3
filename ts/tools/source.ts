/** Reading source: whole files or line ranges, and a symbol's own lines. */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { GetSymbolResult } from '../engine/engine';
import { target } from './common';
import { defineTool, ToolInputError } from './registry';
import { type ToolContext } from '../workspace/context';
import { overlayRel, readSource } from '../workspace/overlays';
import { compressBodies, salientLines } from './source-shape';

/** Largest slice returned by default. */
const DEFAULT_MAX_BYTES = 64 * 1024;
/** Hard ceiling of `max_bytes`. */
const MAX_BYTES = 1024 * 1024;

/** The real path of a repository-relative file, refusing anything outside the repository. */
function resolveInside(root: string, rel: string): string {
  if (rel.trim() === '') throw new ToolInputError('invalid_argument', 'path must not be empty');
  const realRoot = fs.realpathSync(root);
  const absolute = path.resolve(realRoot, rel);
  let real: string;
  try {
    real = fs.realpathSync(absolute);
  } catch {
    throw new ToolInputError('not_found', `no file ${JSON.stringify(rel)} in the repository (paths are relative to ${realRoot})`);
  }
  if (real !== realRoot && !real.startsWith(realRoot + path.sep)) {
    throw new ToolInputError('invalid_argument', `path ${JSON.stringify(rel)} is outside the repository; only files under ${realRoot} can be read`);
  }
  if (!fs.statSync(real).isFile()) throw new ToolInputError('invalid_argument', `${JSON.stringify(rel)} is not a regular file`);
  return real;
}

/** What `read_file` returns (and `get_symbol_source`, with the symbol added). */
export interface ReadFileResult {
  path: string;
  start_line: number;
  end_line: number;
  total_lines: number;
  text: string;
  truncated: boolean;
}

/** A read slice and the size of the whole file it was cut from (for `tokens_saved`). */
interface Slice extends ReadFileResult {
  file_bytes: number;
}

/** Lines `start..=end` (1-based, clamped to the file) of a file, cut at `maxBytes`. */
function readSlice(ctx: ToolContext, rel: string, start: number | undefined, end: number | undefined, maxBytes: number): Slice {
  // An overlay buffer is named as pushed; a file on disk by its real path under the root.
  let shown = overlayRel(rel);
  const bytes = readSource(ctx, rel, () => {
    const file = resolveInside(ctx.root, rel);
    shown = path.relative(fs.realpathSync(ctx.root), file).split(path.sep).join('/');
    return fs.readFileSync(file);
  });
  if (bytes.subarray(0, 8192).includes(0)) {
    throw new ToolInputError('invalid_argument', `${JSON.stringify(rel)} is a binary file`);
  }
  const lines = bytes.toString('utf8').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  const from = Math.max(1, start ?? 1);
  if (from > lines.length) {
    throw new ToolInputError('invalid_argument', `start_line ${from} is past the end of ${rel} (${lines.length} lines)`);
  }
  const to = Math.min(lines.length, end ?? lines.length);
  if (to < from) throw new ToolInputError('invalid_argument', `end_line ${to} is before start_line ${from}`);
  // The running byte count is kept, not re-measured: measuring the whole text per line made a
  // file of many short lines quadratic (minutes for 1 MiB).
  const parts: string[] = [];
  let used = 0;
  let last = from - 1;
  let truncated = false;
  for (let i = from; i <= to; i++) {
    const line = `${lines[i - 1]}\n`;
    const size = Buffer.byteLength(line);
    if (used + size > maxBytes) {
      truncated = true;
      break;
    }
    parts.push(line);
    used += size;
    last = i;
  }
  const text = parts.join('');
  return { path: shown, start_line: from, end_line: last, total_lines: lines.length, text, truncated, file_bytes: bytes.length };
}

/** [`readSlice`] as `read_file` answers it. */
function readLines(ctx: ToolContext, rel: string, start: number | undefined, end: number | undefined, maxBytes: number): ReadFileResult {
  const { file_bytes: _, ...slice } = readSlice(ctx, rel, start, end, maxBytes);
  return slice;
}

const maxBytes = z.number().int().min(1).max(MAX_BYTES).optional().describe(`Cut the text at this many bytes (default ${DEFAULT_MAX_BYTES})`);

/** The source family. */
export const sourceTools = [
  defineTool({
    name: 'read_file',
    category: 'read',
    effect: 'read',
    description: 'Read a repository file or a line range of it (1-based, inclusive); refuses paths outside the repository and binary files.',
    input: {
      path: z.string().describe('Repository-relative path'),
      start_line: z.number().int().min(1).optional(),
      end_line: z.number().int().min(1).optional(),
      max_bytes: maxBytes,
    },
    handler: (ctx, args) => readLines(ctx, args.path, args.start_line, args.end_line, args.max_bytes ?? DEFAULT_MAX_BYTES),
  }),
  defineTool({
    name: 'get_symbol_source',
    category: 'read',
    effect: 'read',
    description:
      "A symbol's own source lines (plus context_lines around them) with its signature and location; cheaper than reading the file: tokens_saved is what this answer saved against reading the whole file.",
    input: {
      id: target,
      context_lines: z.number().int().min(0).max(50).optional().describe('Extra lines before and after (default 0)'),
      compress_bodies: z
        .boolean()
        .optional()
        .describe('Stub function and method bodies down to their signatures (docs and fields stay)'),
      max_lines: z
        .number()
        .int()
        .min(3)
        .max(10_000)
        .optional()
        .describe('Keep at most this many lines, the most telling ones (returns, throws, branches, calls)'),
      max_bytes: maxBytes,
    },
    handler: (ctx, args) => {
      const found = ctx.engine.query('get_symbol', { id: args.id }, { repo: ctx.repo }) as GetSymbolResult;
      const s = found.node;
      if (!s.file_path || s.start_line === 0) throw new ToolInputError('invalid_argument', `${s.id} has no source in this repository (external or file-less)`);
      const extra = args.context_lines ?? 0;
      const slice = readSlice(ctx, s.file_path, Math.max(1, s.start_line - extra), s.end_line + extra, args.max_bytes ?? DEFAULT_MAX_BYTES);
      // Against reading the whole file, estimated at four bytes per token like every budget here.
      const saved = (source: string) => Math.max(0, Math.round((slice.file_bytes - Buffer.byteLength(source)) / 4));
      // `from_line`/`to_line`: the lines returned (context included); `start_line`/`end_line`: the symbol's.
      const answer = { node: s, path: slice.path, from_line: slice.start_line, to_line: slice.end_line, start_line: s.start_line, end_line: s.end_line, total_lines: slice.total_lines, source: slice.text, truncated: slice.truncated, tokens_saved: saved(slice.text) };
      if (!args.compress_bodies && args.max_lines === undefined) return answer;
      const original = slice.text.split('\n');
      if (original[original.length - 1] === '') original.pop();
      let shaped = original;
      if (args.compress_bodies) {
        const all = [...Array(slice.start_line - 1).fill(''), ...original];
        shaped = compressBodies(all, slice.start_line, slice.end_line, ctx.engine.fileSymbols(ctx.repo, s.file_path));
      }
      let omitted = 0;
      if (args.max_lines !== undefined) ({ lines: shaped, omitted } = salientLines(shaped, args.max_lines));
      const source = shaped.map((l) => `${l}\n`).join('');
      return {
        ...answer,
        source,
        ...(args.compress_bodies ? { compressed: true } : {}),
        ...(omitted > 0 ? { lines_omitted: omitted } : {}),
        tokens_saved: saved(source),
      };
    },
  }),
];
