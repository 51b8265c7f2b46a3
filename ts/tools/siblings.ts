/**
 * `sibling_diff_context`: the raw unified diff of the other files a changeset changed — what a
 * per-file or per-symbol review of one focus file leaves out — ranked by how related each is to
 * the focus: an import edge between the two files, then git co-change (files the same commits
 * changed), then directory proximity.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { git } from '../support/git';
import type { ToolContext } from '../workspace/context';
import { detectChanges } from './changes';
import { defineTool, ToolInputError } from './registry';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Shared leading directories over the deeper of the two directory depths (0–1). */
function proximity(a: string, b: string): number {
  const da = a.split('/').slice(0, -1);
  const db = b.split('/').slice(0, -1);
  let shared = 0;
  while (shared < Math.min(da.length, db.length) && da[shared] === db[shared]) shared++;
  const depth = Math.max(da.length, db.length);
  return depth === 0 ? 1 : shared / depth;
}

/** A file git does not track yet, as the unified diff that would add it. */
function newFileDiff(root: string, rel: string): string {
  let text: string;
  try {
    text = fs.readFileSync(path.join(root, rel), 'utf8');
  } catch {
    return '';
  }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return `diff --git a/${rel} b/${rel}\nnew file\n--- /dev/null\n+++ b/${rel}\n@@ -0,0 +1,${lines.length} @@\n${lines.map((l) => `+${l}\n`).join('')}`;
}

/** Repository files the focus file imports or is imported by (file-level dependencies). */
function linkedFiles(ctx: ToolContext, file: string): Set<string> {
  const out = new Set<string>();
  for (const tool of ['get_dependencies', 'get_dependents'] as const) {
    try {
      const r = ctx.engine.query(tool, { id: file, limit: 1000 }, { repo: ctx.repo }) as Json;
      for (const n of r.nodes ?? []) if (n.file_path && n.file_path !== file) out.add(n.file_path);
    } catch {
      // A file the graph does not hold (new, deleted, not a language) has no edges to rank by.
    }
  }
  return out;
}

/** Co-change scores of other files with the focus file; empty without git history. */
function coChange(ctx: ToolContext, file: string): { scores: Map<string, number>; note?: string } {
  try {
    const r = ctx.engine.query('find_co_changing_symbols', { symbol: file, min_shared: 1, min_score: 0, limit: 1000 }, { repo: ctx.repo }) as Json;
    return { scores: new Map((r.neighbours as Json[]).map((n) => [n.path, n.score])) };
  } catch (e) {
    return { scores: new Map(), note: `co-change not used: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function siblingDiffContext(
  ctx: ToolContext,
  args: { focus: string; base?: string | undefined; staged?: boolean | undefined; max_files?: number | undefined; max_bytes_per_file?: number | undefined },
): Promise<Record<string, unknown>> {
  const changes = await detectChanges(ctx, { base: args.base, staged: args.staged });
  const files = changes.files as { path: string; status: string; additions: number; deletions: number; symbols?: { id: string; name: string }[] }[];
  let focus = files.find((f) => f.path === args.focus.replace(/^\.\//, ''))?.path;
  if (!focus) focus = files.find((f) => (f.symbols ?? []).some((s) => s.id === args.focus || s.name === args.focus))?.path;
  if (!focus) {
    throw new ToolInputError(
      'not_found',
      `focus ${JSON.stringify(args.focus)} is neither a changed file nor a changed symbol against ${args.base ?? 'HEAD'}; changed files: ${files.map((f) => f.path).slice(0, 10).join(', ') || 'none'}`,
    );
  }
  const linked = linkedFiles(ctx, focus);
  const co = coChange(ctx, focus);
  const ranked = files
    .filter((f) => f.path !== focus)
    .map((f) => {
      const reasons: string[] = [];
      const link = linked.has(f.path) ? 1 : 0;
      if (link) reasons.push('imports or is imported by the focus file');
      const together = co.scores.get(f.path) ?? 0;
      if (together > 0) reasons.push(`changes together with it (co-change ${together})`);
      const near = proximity(focus!, f.path);
      if (near > 0) reasons.push(`${Math.round(near * 100)} % of its directory path is shared`);
      return { path: f.path, status: f.status, additions: f.additions, deletions: f.deletions, score: Math.round((0.5 * link + 0.3 * together + 0.2 * near) * 1000) / 1000, reasons };
    })
    .sort((a, b) => b.score - a.score || a.path.localeCompare(b.path));
  const maxFiles = args.max_files ?? 10;
  const maxBytes = args.max_bytes_per_file ?? 20_000;
  const siblings = [];
  for (const s of ranked.slice(0, maxFiles)) {
    const base = (changes.base_commit as string | undefined) ?? '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
    const diffArgs = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--relative', ...(args.staged ? ['--cached'] : []), base, '--', s.path];
    const r = await git(ctx.root, diffArgs);
    let diff = r.ok ? r.stdout : '';
    if (r.ok && diff === '' && s.status === 'added') diff = newFileDiff(ctx.root, s.path);
    const truncated = Buffer.byteLength(diff) > maxBytes;
    siblings.push({ ...s, diff: truncated ? Buffer.from(diff).subarray(0, maxBytes).toString('utf8') : diff, ...(truncated ? { diff_truncated: true } : {}) });
  }
  return {
    focus,
    base: changes.base,
    siblings,
    total: ranked.length,
    truncated: ranked.length > maxFiles,
    ...(co.note ? { note: co.note } : {}),
  };
}

/** The sibling-diff tool. */
export const siblingTools = [
  defineTool({
    name: 'sibling_diff_context',
    category: 'review',
    effect: 'read',
    description:
      'Raw unified diffs of the OTHER files a changeset changed, ranked by relatedness to a focus file or symbol: an import edge between the files, git co-change, directory proximity — ' +
      'the sibling changes a per-file or per-symbol review leaves out. Compares the working tree (or the staged changes) with a base (default HEAD).',
    input: {
      focus: z.string().min(1).describe('The changed file (repository path) or changed symbol (id or name) under review'),
      base: z.string().optional().describe('A commit, branch or tag to compare with (default HEAD)'),
      staged: z.boolean().optional().describe('The staged changes instead of the working tree'),
      max_files: z.number().int().min(1).max(100).optional().describe('Most sibling files returned with their diff (default 10)'),
      max_bytes_per_file: z.number().int().min(256).max(1_000_000).optional().describe('Diff bytes kept per file (default 20000); longer diffs are cut and flagged'),
    },
    handler: (ctx, args) => siblingDiffContext(ctx, args),
  }),
];
