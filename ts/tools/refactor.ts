/**
 * The refactor family: graph-driven changes to many files at once. `rename_symbol` renames a
 * declaration and every reference the graph records, whole identifiers only, through the write
 * rules of `ts/workspace/writes.ts` (every file staged, re-checked, parse-gated, written all or
 * nothing, re-indexed before the answer).
 */
import * as fs from 'node:fs';
import { z } from 'zod';
import type { FindOverridesResult, FindUsagesResult, GetSymbolResult, NodeSummary, SearchTextResult } from '../engine/engine';
import { target } from './common';
import { defineTool, ToolInputError } from './registry';
import type { ToolContext } from '../workspace/context';
import { commitWrites, resolveWritable, syncIndex, type PlannedWrite } from '../workspace/writes';

/** Most reference sites one rename rewrites; past it the rename is refused (split it, or narrow it). */
const MAX_SITES = 5000;
/** Edits listed in the answer (the count is always exact). */
const MAX_LISTED_EDITS = 200;
/** Lines after a reference's recorded line searched for the name (a call split over lines). */
const SITE_LOOKAHEAD = 2;

/** Characters that continue an identifier in every supported language (`$` for JS, PHP). */
const IDENT_CHAR = /[A-Za-z0-9_$]/;

/** Identifier-shaped new names; each language then parses the result (the parse gate). */
const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** The columns (0-based) at which `name` occurs as a whole identifier in `line`. */
export function identifierColumns(line: string, name: string): number[] {
  const out: number[] = [];
  for (let at = line.indexOf(name); at >= 0; at = line.indexOf(name, at + name.length)) {
    const before = at > 0 ? line[at - 1]! : '';
    const after = line[at + name.length] ?? '';
    if (!IDENT_CHAR.test(before) && !IDENT_CHAR.test(after)) out.push(at);
  }
  return out;
}

/** One line a rename rewrites. */
interface LineEdit {
  path: string;
  line: number;
  before: string;
  after: string;
  /** Why the line is edited: the declaration, a reference (its context and tier), or a test name. */
  reason: string;
}

/** Whole-identifier `old` → `now` on one line. */
function renameOnLine(text: string, old: string, now: string): string {
  let out = '';
  let last = 0;
  for (const at of identifierColumns(text, old)) {
    out += text.slice(last, at) + now;
    last = at + old.length;
  }
  return out + text.slice(last);
}

/** `name` with `old` replaced by `now` where it is a part of a test name (`TestOld`, `test_old_x`, `oldWorks`). */
function renamedTestName(name: string, old: string, now: string): string | undefined {
  const at = name.indexOf(old);
  if (at < 0 || name === old) return undefined;
  return name.slice(0, at) + now + name.slice(at + old.length);
}

/** The refactor family. */
export const refactorTools = [
  defineTool({
    name: 'rename_symbol',
    category: 'edit',
    effect: 'local_write',
    description:
      'Rename a symbol: its declaration, every reference the graph records (calls, types, imports, receivers) and test functions whose names embed it, ' +
      'whole identifiers only (renaming Get leaves GetUser alone). Every file is staged, re-checked against disk and parse-gated, then all are written or none. ' +
      'Reports mentions it did not change (comments, strings, unresolved uses). dry_run returns the edit list.',
    input: {
      id: target,
      new_name: z.string().min(1).describe('The new identifier'),
      include_tests: z.boolean().optional().describe('Also rename test functions whose names embed the old name (default true)'),
      min_tier: z
        .enum(['ast_resolved', 'ast_inferred', 'text_matched'])
        .optional()
        .describe('Weakest evidence of a reference that is rewritten (default text_matched: every graph reference)'),
      dry_run: z.boolean().optional().describe('Return the edits without writing'),
      allow_parse_errors: z.boolean().optional().describe('Write even if a file gains syntax errors'),
    },
    handler: async (ctx, args) => rename(ctx, args),
  }),
];

interface RenameArgs {
  id: string;
  new_name: string;
  include_tests?: boolean | undefined;
  min_tier?: 'ast_resolved' | 'ast_inferred' | 'text_matched' | undefined;
  dry_run?: boolean | undefined;
  allow_parse_errors?: boolean | undefined;
}

async function rename(ctx: ToolContext, args: RenameArgs): Promise<Record<string, unknown>> {
  const symbol = (): NodeSummary => (ctx.engine.query('get_symbol', { id: args.id }, { repo: ctx.repo }) as GetSymbolResult).symbol;
  let s = symbol();
  if (!s.path || s.line === 0 || s.external) throw new ToolInputError('invalid_argument', `${s.id} is not declared in this repository (external or file-less): it cannot be renamed here`);
  if (s.kind === 'file' || s.kind === 'package' || s.kind === 'module') {
    throw new ToolInputError('invalid_argument', `${s.id} is a ${s.kind}; rename_symbol renames declarations (move a file with your tools, then re-index)`);
  }
  const oldName = s.name;
  const newName = args.new_name;
  if (!IDENTIFIER.test(newName)) throw new ToolInputError('invalid_argument', `new_name ${JSON.stringify(newName)} is not an identifier (letters, digits, _ and $, not starting with a digit)`);
  if (newName === oldName) throw new ToolInputError('invalid_argument', `${s.id} is already named ${newName}`);
  // Spans and references must be those of the files as they are now.
  await syncIndex(ctx, [s.path]);
  s = symbol();

  // A method in an override hierarchy renamed alone would stop overriding (or break an interface).
  if (s.kind === 'method') {
    const hierarchy = ctx.engine.query('find_overrides', { id: s.id, direction: 'both', limit: 20 }, { repo: ctx.repo }) as FindOverridesResult;
    const related = [...hierarchy.parents, ...hierarchy.children].map((r) => r.method.id);
    if (related.length > 0) {
      throw new ToolInputError(
        'hierarchy',
        `${s.id} overrides or is overridden by ${related.join(', ')}: renaming it alone would break the hierarchy. Rename the whole family (each of them), or change the design first`,
      );
    }
  }
  // Another declaration of the new name beside it would collide.
  const siblings = ctx.engine.fileSymbols(ctx.repo, s.path);
  const parentOf = (id: string): string => id.slice(0, Math.max(id.lastIndexOf('.'), id.lastIndexOf('::')));
  const clash = siblings.find((n) => n.name === newName && parentOf(n.id) === parentOf(s.id));
  if (clash) throw new ToolInputError('conflict', `${s.path} already declares ${newName} in the same scope (${clash.id}): pick another name`);

  const usages = ctx.engine.query('find_usages', { id: s.id, limit: 1000, min_tier: args.min_tier ?? 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
  if (usages.truncated || usages.total > MAX_SITES) {
    throw new ToolInputError('too_large', `${s.id} has ${usages.total} references; rename_symbol rewrites at most 1000 in one call`);
  }

  // The lines to rewrite, per file.
  const edits = new Map<string, Map<number, LineEdit>>();
  const contents = new Map<string, string[]>();
  const linesOf = (path: string): string[] => {
    let lines = contents.get(path);
    if (!lines) {
      lines = fs.readFileSync(resolveWritable(ctx.root, path, { create: false }).abs, 'utf8').split('\n');
      contents.set(path, lines);
    }
    return lines;
  };
  const unmatched: { path: string; line: number; reason: string }[] = [];
  /** Rewrites the first of `line` and the lines after it (up to `lookahead`) that hold `old`. */
  const site = (path: string, line: number, old: string, now: string, reason: string, lookahead: number): void => {
    const lines = linesOf(path);
    for (let l = line; l <= Math.min(lines.length, line + lookahead); l++) {
      const text = lines[l - 1]!;
      if (identifierColumns(text, old).length === 0) continue;
      const perFile = edits.get(path) ?? new Map<number, LineEdit>();
      edits.set(path, perFile);
      const existing = perFile.get(l);
      const base = existing ? existing.after : text;
      perFile.set(l, { path, line: l, before: existing ? existing.before : text, after: renameOnLine(base, old, now), reason: existing ? existing.reason : reason });
      return;
    }
    unmatched.push({ path, line, reason });
  };

  site(s.path, s.line, oldName, newName, 'declaration', Math.max(0, s.end_line - s.line));
  const counted = new Set<string>();
  for (const u of usages.usages) {
    const key = `${u.path}:${u.line}`;
    if (counted.has(key)) continue;
    counted.add(key);
    site(u.path, u.line, oldName, newName, `${u.context} (${u.origin})`, SITE_LOOKAHEAD);
  }
  // Test functions named after it (TestParse → TestLoad): their declarations.
  const renamedTests: { id: string; from: string; to: string }[] = [];
  if (args.include_tests !== false) {
    const testers = ctx.engine.edges(ctx.repo, s.id, { direction: 'in', kinds: ['tests'] });
    for (const e of testers) {
      const node = ctx.engine.getNode(ctx.repo, e.from);
      if (!node) continue;
      const to = renamedTestName(node.name, oldName, newName);
      if (to === undefined) continue;
      site(node.path, node.start_line, node.name, to, 'test name', Math.max(0, node.end_line - node.start_line));
      renamedTests.push({ id: node.id, from: node.name, to });
    }
  }
  if (unmatched.length > 0) {
    throw new ToolInputError(
      'stale',
      `${unmatched.length} reference${unmatched.length === 1 ? '' : 's'} of ${oldName} could not be found on ${unmatched.length === 1 ? 'its' : 'their'} recorded line (${unmatched
        .slice(0, 5)
        .map((u) => `${u.path}:${u.line}`)
        .join(', ')}): the index may be behind the files. Re-index (reindex_repository) and retry; nothing was written`,
    );
  }

  // Mentions left alone: comments, strings, dynamic or unresolved uses.
  const mentions = ctx.engine.query('search_text', { query: `\\b${oldName.replace(/\$/g, '\\$')}\\b`, regexp: true, limit: 200 }, { repo: ctx.repo }) as SearchTextResult;
  const rewritten = (path: string, line: number): boolean => edits.get(path)?.has(line) === true;
  const leftAlone = mentions.hits.filter((h) => !rewritten(h.path, h.line));

  const plans: PlannedWrite[] = [];
  for (const [path, perFile] of [...edits.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const t = resolveWritable(ctx.root, path, { create: false });
    const lines = t.current!.toString('utf8').split('\n');
    for (const e of perFile.values()) {
      if (lines[e.line - 1] !== e.before) {
        throw new ToolInputError('conflict', `${path}:${e.line} changed while the rename was prepared; nothing was written. Retry`);
      }
      lines[e.line - 1] = e.after;
    }
    plans.push({ target: t, after: Buffer.from(lines.join('\n'), 'utf8') });
  }
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  const allEdits = [...edits.values()].flatMap((m) => [...m.values()]).sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  const store = ctx.session?.store;
  if (store && !args.dry_run) {
    for (const w of written) store.recordEdit('file', w.path, w.path, 'rename_symbol');
    store.recordEdit('symbol', s.id, s.path, 'rename_symbol');
  }
  let references: Record<string, number> | undefined;
  let newId: string | undefined;
  if (!args.dry_run) {
    newId = `${s.id.slice(0, s.id.length - oldName.length)}${newName}`;
    const after = ctx.engine.getNode(ctx.repo, newId) ? (ctx.engine.query('find_usages', { id: newId, limit: 1, min_tier: args.min_tier ?? 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult) : undefined;
    references = { before: usages.total, after: after?.total ?? 0 };
  }
  return {
    status: allEdits.length === 0 ? 'no_edits' : args.dry_run ? 'would_apply' : 'applied',
    id: s.id,
    ...(newId ? { new_id: newId } : {}),
    old_name: oldName,
    new_name: newName,
    files: written.map((w) => ({ ...w, edits: edits.get(w.path)?.size ?? 0, reindexed: args.dry_run !== true })),
    edit_count: allEdits.length,
    edits: allEdits.slice(0, MAX_LISTED_EDITS).map(({ path, line, before, after, reason }) => ({ path, line, reason, before: before.replace(/\r$/, ''), after: after.replace(/\r$/, '') })),
    ...(allEdits.length > MAX_LISTED_EDITS ? { edits_truncated: true } : {}),
    ...(renamedTests.length > 0 ? { tests_renamed: renamedTests } : {}),
    ...(references ? { references } : {}),
    ...(leftAlone.length > 0
      ? {
          not_changed: {
            note: `${leftAlone.length}${mentions.truncated ? '+' : ''} other line${leftAlone.length === 1 ? '' : 's'} mention ${oldName} as a word (comments, strings, other symbols of that name, uses the graph could not resolve): check them`,
            lines: leftAlone.slice(0, 20).map((h) => ({ path: h.path, line: h.line, text: h.text })),
          },
        }
      : {}),
  };
}
