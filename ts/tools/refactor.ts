/**
 * The refactor family: graph-driven changes to many files at once. `rename_symbol` renames a
 * declaration and every reference the graph records, whole identifiers only, through the write
 * rules of `ts/workspace/writes.ts` (every file staged, re-checked, parse-gated, written all or
 * nothing, re-indexed before the answer).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { FindOverridesResult, FindUsagesResult, GetSymbolResult, NodeSummary, SearchSymbolsResult, SearchTextResult, UsageRow } from '../engine/engine';
import { target } from './common';
import { defineTool, repoNameOf, ToolInputError } from './registry';
import { retargetAnchors } from './memory';
import type { ToolContext } from '../workspace/context';
import { commitWrites, resolveWritable, syncIndex, type PlannedWrite } from '../workspace/writes';
import { unifiedDiff } from './edit';
import { refactorFacts } from '../engine/engine';
import { familyOf, importsOf, pruneImports, pythonModule, resolveEcma, resolvePythonFrom } from './imports';

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

/** Whole-identifier `old` → `now` on one line; only at `columns` when given (the identifier tokens there). */
function renameOnLine(text: string, old: string, now: string, columns?: readonly number[]): string {
  let out = '';
  let last = 0;
  for (const at of identifierColumns(text, old).filter((c) => columns === undefined || columns.includes(c))) {
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

/**
 * The declaration `id` names, read again after its file is synced with the index (spans and
 * references must be those of the file as it is now). Refuses a symbol without source here and a
 * file, package or module (`what` says what the tool does with declarations).
 */
export async function freshDeclaration(ctx: ToolContext, id: string, what: string): Promise<NodeSummary> {
  const lookup = (): NodeSummary => (ctx.engine.query('get_symbol', { id }, { repo: ctx.repo }) as GetSymbolResult).node;
  const s = lookup();
  if (!s.file_path || s.start_line === 0 || s.external) throw new ToolInputError('invalid_argument', `${s.id} is not declared in this repository (external or file-less)`);
  if (s.kind === 'file' || s.kind === 'package' || s.kind === 'module') throw new ToolInputError('invalid_argument', `${s.id} is a ${s.kind}; ${what}`);
  await syncIndex(ctx, [s.file_path]);
  return lookup();
}

/** The methods `id` overrides and that override it (empty for anything else). */
export function overrideFamily(ctx: ToolContext, id: string, limit = 100): FindOverridesResult['parents'] {
  const h = ctx.engine.query('find_overrides', { id, direction: 'both', limit }, { repo: ctx.repo }) as FindOverridesResult;
  return [...h.parents, ...h.children];
}

/** Another declaration named `name` in the same scope as `s` (its file, same owner), if any. */
export function declaredBeside(ctx: ToolContext, s: NodeSummary, name: string): string | undefined {
  const ownerOf = (id: string): string => ownerIdOf(id) ?? id.slice(0, id.indexOf('::'));
  return ctx.engine.fileSymbols(ctx.repo, s.file_path).find((n) => n.name === name && ownerOf(n.id) === ownerOf(s.id))?.id;
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
      allow_unresolved: z.boolean().optional().describe('Rename even when other lines use the name as an identifier the graph does not link to any declaration (they are left as they are)'),
    },
    handler: async (ctx, args) => rename(ctx, args),
  }),
  defineTool({
    name: 'safe_delete_symbol',
    category: 'edit',
    effect: 'local_write',
    description:
      'Delete a declaration nothing uses: refused (with the users listed) while anything outside it references it — tests included — or when it overrides or is overridden. ' +
      'Its doc comment and decorators go with it. cascade "preview" lists what would be left unused once it is gone, "apply" deletes those too (to a fixed point; exported symbols stay).',
    input: {
      id: target,
      cascade: z.enum(['off', 'preview', 'apply']).optional().describe('off (default), preview the orphans it would leave, or apply: delete them too'),
      dry_run: z.boolean().optional().describe('Return what would be deleted without writing'),
      allow_parse_errors: z.boolean().optional().describe('Write even if a file gains syntax errors'),
    },
    handler: async (ctx, args) => safeDelete(ctx, args),
  }),
  defineTool({
    name: 'suggest_pattern',
    category: 'edit',
    effect: 'read',
    description:
      'The pattern an existing declaration follows, to add another like it: its source, where it is wired up (references from other files that are not calls: registrations, tables, exports, imports) and the tests that reach it, with their source.',
    input: { id: target },
    handler: (ctx, args) => pattern(ctx, args.id),
  }),
  defineTool({
    name: 'scaffold',
    category: 'edit',
    effect: 'local_write',
    description:
      "Add a declaration modelled on an example: its source copied under new_name (whole identifiers renamed) right after the example, a test copied from the example's tests beside each, " +
      'and with wire: true the registrations repeated (imports extended, non-call references duplicated). Parse-gated, all files or none; dry_run shows the diffs.',
    input: {
      id: target.describe('The example declaration'),
      new_name: z.string().min(1).describe('The new identifier'),
      tests: z.boolean().optional().describe("Copy the example's tests too (default true)"),
      wire: z.boolean().optional().describe('Repeat the registrations suggest_pattern lists (default false: listed, not written)'),
      dry_run: z.boolean().optional(),
      allow_parse_errors: z.boolean().optional(),
    },
    handler: async (ctx, args) => scaffold(ctx, args),
  }),
];

interface RenameArgs {
  id: string;
  new_name: string;
  include_tests?: boolean | undefined;
  min_tier?: 'ast_resolved' | 'ast_inferred' | 'text_matched' | undefined;
  dry_run?: boolean | undefined;
  allow_parse_errors?: boolean | undefined;
  allow_unresolved?: boolean | undefined;
}

async function rename(ctx: ToolContext, args: RenameArgs): Promise<Record<string, unknown>> {
  const newName = args.new_name;
  if (!IDENTIFIER.test(newName)) throw new ToolInputError('invalid_argument', `new_name ${JSON.stringify(newName)} is not an identifier (letters, digits, _ and $, not starting with a digit)`);
  const s = await freshDeclaration(ctx, args.id, 'rename_symbol renames declarations (move a file with your tools, then re-index)');
  const oldName = s.name;
  if (newName === oldName) throw new ToolInputError('invalid_argument', `${s.id} is already named ${newName}`);

  // A method in an override hierarchy renamed alone would stop overriding (or break an interface).
  if (s.kind === 'method') {
    const related = overrideFamily(ctx, s.id).map((r) => r.method.id);
    if (related.length > 0) {
      throw new ToolInputError(
        'hierarchy',
        `${s.id} overrides or is overridden by ${related.join(', ')}: renaming it alone would break the hierarchy. Rename the whole family (each of them), or change the design first`,
      );
    }
  }
  const contract = contractRefusal(ctx, s, false);
  if (contract) throw new ToolInputError('hierarchy', `${contract}: renaming it alone could break the build. Nothing was written`);
  // Another declaration of the new name beside it would collide.
  const clash = declaredBeside(ctx, s, newName);
  if (clash) throw new ToolInputError('conflict', `${s.file_path} already declares ${newName} in the same scope (${clash}): pick another name`);

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
  const skipped: { path: string; line: number; reason: string }[] = [];
  // Where `name` is an identifier token in a file (never in a string, a comment or a built-in type
  // keyword), by line; undefined for a language without syntax facts (whole words are used there).
  const tokens = new Map<string, Map<number, number[]> | undefined>();
  const tokenColumns = (path: string, name: string, line: number): number[] | undefined => {
    const key = `${path}\0${name}`;
    if (!tokens.has(key)) {
      let byLine: Map<number, number[]> | undefined;
      if (familyOf(path)) {
        byLine = new Map();
        const buf = Buffer.from(linesOf(path).join('\n'), 'utf8');
        for (const t of refactorFacts(path, buf, 'identifiers', { name })) byLine.set(t.line, [...(byLine.get(t.line) ?? []), t.column]);
      }
      tokens.set(key, byLine);
    }
    const byLine = tokens.get(key);
    return byLine === undefined ? undefined : (byLine.get(line) ?? []);
  };
  // A reference from an import is recorded on the statement's first line; its names may follow on the next ones.
  const importSpans = new Map<string, { start_line: number; end_line: number }[]>();
  const importSpan = (path: string, line: number): number => {
    if (!familyOf(path)) return 0;
    if (!importSpans.has(path)) {
      try {
        importSpans.set(path, importsOf(path, Buffer.from(linesOf(path).join('\n'), 'utf8')));
      } catch {
        importSpans.set(path, []);
      }
    }
    const st = importSpans.get(path)!.find((i) => i.start_line === line);
    return st ? st.end_line - st.start_line : 0;
  };
  /** Rewrites the first of `line` and the lines after it (up to `lookahead`) that hold `old`. */
  const site = (path: string, line: number, old: string, now: string, reason: string, lookahead: number, inStrings = false): void => {
    const lines = linesOf(path);
    let wordOnly = false;
    for (let l = line; l <= Math.min(lines.length, line + lookahead); l++) {
      const text = lines[l - 1]!;
      if (identifierColumns(text, old).length === 0) continue;
      const columns = inStrings ? undefined : tokenColumns(path, old, l);
      if (columns !== undefined && !identifierColumns(text, old).some((c) => columns.includes(c))) {
        wordOnly = true;
        continue;
      }
      const perFile = edits.get(path) ?? new Map<number, LineEdit>();
      edits.set(path, perFile);
      const existing = perFile.get(l);
      const base = existing ? existing.after : text;
      perFile.set(l, { path, line: l, before: existing ? existing.before : text, after: renameOnLine(base, old, now, columns), reason: existing ? existing.reason : reason });
      return;
    }
    // The word is there but not as an identifier (a string, a comment, a built-in type): the graph's
    // reference is not one to rewrite.
    if (wordOnly) skipped.push({ path, line, reason });
    else unmatched.push({ path, line, reason });
  };

  site(s.file_path, s.start_line, oldName, newName, 'declaration', Math.max(0, s.end_line - s.start_line));
  // A class's constructors carry its name (Java, C#, C++…): they are renamed with it.
  if (s.kind === 'type') {
    for (const n of ctx.engine.fileSymbols(ctx.repo, s.file_path)) {
      if (n.name === oldName && ownerIdOf(n.id) === s.id) site(s.file_path, n.start_line, oldName, newName, 'constructor', Math.max(0, n.end_line - n.start_line));
    }
  }
  const counted = new Set<string>();
  for (const u of usages.usages) {
    const key = `${u.path}:${u.line}`;
    if (counted.has(key)) continue;
    counted.add(key);
    site(u.path, u.line, oldName, newName, `${u.context} (${u.origin})`, Math.max(SITE_LOOKAHEAD, importSpan(u.path, u.line)));
  }
  // A function declared inside another: every use of its name in the enclosing one is a use of it
  // (the graph may not resolve a local function passed as a value).
  const ownerId = ownerIdOf(s.id);
  const owner = ownerId ? ctx.engine.getNode(ctx.repo, ownerId) : null;
  if (owner && (owner.kind === 'function' || owner.kind === 'method') && (s.kind === 'function' || s.kind === 'method')) {
    for (let l = owner.start_line; l <= owner.end_line; l++) {
      if ((tokenColumns(s.file_path, oldName, l) ?? []).length > 0 && !edits.get(s.file_path)?.has(l)) site(s.file_path, l, oldName, newName, `local use in ${owner.name}`, 0);
    }
  }
  // Members reached through a module alias the graph may not resolve (`ns.old` after
  // `import * as ns`, `mod.old` after `import pkg.mod as mod`): rewritten where the alias is the declaring module.
  if (!localOf(s.id).includes('.')) {
    for (const { path, alias } of moduleAliases(ctx, s.file_path)) {
      const lines = linesOf(path);
      const pattern = new RegExp(`(^|[^A-Za-z0-9_$.])${alias.replace(/[.$]/g, (c) => `\\${c}`)}\\s*\\.\\s*${oldName.replace(/\$/g, '\\$')}(?![A-Za-z0-9_$])`);
      lines.forEach((text, i) => {
        if (pattern.test(text) && !edits.get(path)?.has(i + 1)) site(path, i + 1, oldName, newName, `member of ${alias}`, 0);
      });
    }
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
  // Python forward references: a type annotation written as a string (`x: "Old"`, `-> "list[Old]"`) is code.
  const forwardRef = new RegExp(`(^\\s*[A-Za-z_][\\w.]*\\s*:|[(,]\\s*[A-Za-z_]\\w*\\s*:|->)\\s*(["'])[\\w.\\[\\], |]*\\b${oldName}\\b[\\w.\\[\\], |]*\\2`);
  for (const h of mentions.hits) {
    if (familyOf(h.path) === 'python' && !rewritten(h.path, h.line) && forwardRef.test(h.text)) site(h.path, h.line, oldName, newName, 'string annotation', 0, true);
  }
  const leftAlone = mentions.hits.filter((h) => !rewritten(h.path, h.line));
  // Identifier uses of the old name that the graph ties neither to this symbol nor to another of
  // that name: they may be uses it missed (a receiver it could not type), and would break.
  if (args.allow_unresolved !== true) {
    const explained = new Set<string>();
    const others = (ctx.engine.query('search_symbols', { query: oldName, limit: 100 }, { repo: ctx.repo }) as SearchSymbolsResult).results.filter((r) => r.name === oldName && r.id !== s.id);
    for (const o of others.slice(0, 25)) {
      for (let l = o.line; l <= o.end_line; l++) explained.add(`${o.path}:${l}`);
      const theirs = ctx.engine.query('find_usages', { id: o.id, limit: 500, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
      for (const u of theirs.usages) for (let l = u.line; l <= u.line + SITE_LOOKAHEAD; l++) explained.add(`${u.path}:${l}`);
    }
    const unresolved = tokenMentions(ctx, oldName, [{ path: s.file_path, from: s.start_line, to: s.end_line }], localOf(s.id).includes('.') ? undefined : false).filter((m) => !rewritten(m.path, m.line) && !explained.has(`${m.path}:${m.line}`));
    if (unresolved.length > 0) {
      throw new ToolInputError(
        'unresolved',
        `${unresolved.length}${unresolved.length >= 200 ? '+' : ''} line${unresolved.length === 1 ? '' : 's'} use ${oldName} as an identifier the graph links neither to ${s.id} nor to another ${oldName} (${unresolved
          .slice(0, 6)
          .map((m) => `${m.path}:${m.line}`)
          .join(', ')}${unresolved.length > 6 ? ', …' : ''}): they may be uses it could not resolve, which a rename would leave behind. Check them; pass allow_unresolved: true to rename without them. Nothing was written`,
      );
    }
  }

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
    store.recordEdit('symbol', s.id, s.file_path, 'rename_symbol');
  }
  let references: Record<string, number> | undefined;
  let newId: string | undefined;
  if (!args.dry_run) {
    newId = `${s.id.slice(0, s.id.length - oldName.length)}${newName}`;
    const after = ctx.engine.getNode(ctx.repo, newId) ? (ctx.engine.query('find_usages', { id: newId, limit: 1, min_tier: args.min_tier ?? 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult) : undefined;
    references = { before: usages.total, after: after?.total ?? 0 };
  }
  const anchorsMoved = newId ? retargetAnchors(repoNameOf(ctx), s.id, newId, newName) : 0;
  return {
    status: allEdits.length === 0 ? 'no_edits' : args.dry_run ? 'would_apply' : 'applied',
    id: s.id,
    ...(newId ? { new_id: newId } : {}),
    ...(anchorsMoved > 0 ? { memory_anchors_moved: anchorsMoved } : {}),
    old_name: oldName,
    new_name: newName,
    files: written.map((w) => ({ ...w, edits: edits.get(w.path)?.size ?? 0, reindexed: args.dry_run !== true })),
    edit_count: allEdits.length,
    edits: allEdits.slice(0, MAX_LISTED_EDITS).map(({ path, line, before, after, reason }) => ({ path, line, reason, before: before.replace(/\r$/, ''), after: after.replace(/\r$/, '') })),
    ...(allEdits.length > MAX_LISTED_EDITS ? { edits_truncated: true } : {}),
    ...(renamedTests.length > 0 ? { tests_renamed: renamedTests } : {}),
    ...(skipped.length > 0 ? { references_not_rewritten: skipped.slice(0, 20).map((x) => ({ ...x, why: 'the name is not an identifier there (a string, a comment or a built-in type)' })) } : {}),
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

/** What follows `<path>::` in a node id (`Owner.name`, `name`). */
export function localOf(id: string): string {
  return id.slice(id.indexOf('::') + 2);
}

/** The id of the declaration `id` is declared in (`a.ts::Owner` for `a.ts::Owner.m_L12`), or undefined at top level. */
export function ownerIdOf(id: string): string | undefined {
  const local = localOf(id);
  const dot = local.lastIndexOf('.');
  return dot < 0 ? undefined : id.slice(0, id.length - local.length) + local.slice(0, dot);
}

/**
 * The names other files give the module declared in `file`: TS/JS namespace imports that resolve
 * to it, Python module imports (`import a.b as m`, `from a import b`, the dotted path itself).
 */
export function moduleAliases(ctx: ToolContext, file: string): { path: string; alias: string }[] {
  const family = familyOf(file);
  if (family !== 'ecma' && family !== 'python') return [];
  const hits = ctx.engine.query('search_text', { query: family === 'ecma' ? 'import \\* as' : 'import', regexp: true, limit: 1000 }, { repo: ctx.repo }) as SearchTextResult;
  const module = family === 'python' ? pythonModule(ctx.root, file) : '';
  const out: { path: string; alias: string }[] = [];
  for (const p of new Set(hits.hits.map((h) => h.path))) {
    if (familyOf(p) !== family) continue;
    let facts;
    try {
      facts = importsOf(p, fs.readFileSync(resolveWritable(ctx.root, p, { create: false }).abs));
    } catch {
      continue;
    }
    for (const f of facts) {
      for (const b of f.bindings) {
        if (family === 'ecma' && f.kind === 'namespace' && resolveEcma(ctx.root, p, f.module) === file) out.push({ path: p, alias: b.local });
        if (family === 'python' && f.kind === 'module' && b.imported === module) out.push({ path: p, alias: b.local === b.imported.split('.')[0] && b.imported.includes('.') ? b.imported : b.local });
        if (family === 'python' && f.kind === 'named' && `${resolvePythonFrom(ctx.root, p, f.module)}.${b.imported}` === module) out.push({ path: p, alias: b.local });
      }
    }
  }
  return out;
}

/**
 * Lines outside `exclude` (1-based line spans) where `name` occurs as an identifier token — not in a
 * string or comment (languages with syntax facts; whole words elsewhere). At most 200 looked at.
 */
export function tokenMentions(
  ctx: ToolContext,
  name: string,
  exclude: readonly { path: string; from: number; to: number }[],
  /** false: only names in scope (a top-level declaration is never `o.name`); undefined: every token. */
  member?: boolean,
): { path: string; line: number; text: string }[] {
  const hits = ctx.engine.query('search_text', { query: `\\b${name.replace(/\$/g, '\\$')}\\b`, regexp: true, limit: 200 }, { repo: ctx.repo }) as SearchTextResult;
  const byFile = new Map<string, Set<number> | undefined>();
  const out: { path: string; line: number; text: string }[] = [];
  for (const h of hits.hits) {
    if (exclude.some((x) => x.path === h.path && h.line >= x.from && h.line <= x.to)) continue;
    if (!byFile.has(h.path)) {
      let lines: Set<number> | undefined;
      if (familyOf(h.path)) {
        try {
          const buf = fs.readFileSync(resolveWritable(ctx.root, h.path, { create: false }).abs);
          // A member token counts for a name in scope when its object is a module alias (`ns.name`).
          const aliases = member === false ? importsOf(h.path, buf).filter((f) => f.kind === 'namespace' || f.kind === 'module').flatMap((f) => f.bindings.map((b) => b.local)) : [];
          const text = buf.toString('utf8').split('\n');
          const viaAlias = (t: { line: number; column: number }): boolean => aliases.some((a) => new RegExp(`(^|[^A-Za-z0-9_$.])${a.replace(/[$.]/g, (c) => `\\${c}`)}\\s*\\.\\s*$`).test((text[t.line - 1] ?? '').slice(0, t.column)));
          lines = new Set(
            refactorFacts(h.path, buf, 'identifiers', { name })
              .filter((t) => member === undefined || t.member === member || (member === false && viaAlias(t)))
              .map((t) => t.line),
          );
        } catch {
          lines = undefined;
        }
      }
      byFile.set(h.path, lines);
    }
    const lines = byFile.get(h.path);
    if (lines === undefined ? identifierColumns(h.text, name).length > 0 : lines.has(h.line)) out.push({ path: h.path, line: h.line, text: h.text });
  }
  return out;
}

/** Go methods the standard library calls through its interfaces (fmt.Stringer, error, io, sort, encoding, http). */
const GO_PROTOCOL = new Set(['String', 'GoString', 'Format', 'Error', 'Unwrap', 'Is', 'As', 'Read', 'Write', 'Close', 'Seek', 'ReadFrom', 'WriteTo', 'Len', 'Less', 'Swap', 'ServeHTTP', 'MarshalJSON', 'UnmarshalJSON', 'MarshalText', 'UnmarshalText', 'MarshalBinary', 'UnmarshalBinary', 'MarshalYAML', 'UnmarshalYAML', 'Scan', 'Value', 'Next', 'Err']);

/**
 * Why renaming or deleting `s` alone would break a contract the graph does not record as an
 * override, or undefined: overloads (a call may reach another one), Java's `@Override` and TS's
 * `override` (the supertype may be outside the repository), Python's dunder methods (called
 * implicitly), Go methods an interface may require (Go implements interfaces implicitly), and —
 * for `deleting` — constructors (`new X(…)` is recorded against the class).
 */
export function contractRefusal(ctx: ToolContext, s: NodeSummary, deleting: boolean): string | undefined {
  const local = localOf(s.id);
  const ownerId = ownerIdOf(s.id);
  const owner = ownerId ? ctx.engine.getNode(ctx.repo, ownerId) : null;
  const siblings = ctx.engine.fileSymbols(ctx.repo, s.file_path).filter((n) => n.id !== s.id && n.name === s.name && localOf(n.id).split('.').length === local.split('.').length && (ownerId === undefined || n.id.startsWith(`${ownerId}.`)));
  if (siblings.length > 0) return `${s.name} is overloaded (${siblings.map((n) => n.id).join(', ')}): the graph cannot tell which overload each call reaches`;
  const family = familyOf(s.file_path);
  if (!deleting && family === 'java' && !owner && path.posix.basename(s.file_path) === `${s.name}.java`) {
    return `${s.name} is the type its file is named after (${s.file_path}): Java needs the file renamed with it, which rename_symbol does not do`;
  }
  if (s.kind !== 'method' && s.kind !== 'function') return undefined;
  let head = '';
  try {
    const lines = fs.readFileSync(resolveWritable(ctx.root, s.file_path, { create: false }).abs, 'utf8').split('\n');
    const [from] = deletionRange(lines, s.start_line, s.end_line);
    head = lines.slice(from - 1, s.start_line).join('\n');
  } catch {
    /* unreadable: no syntax to check */
  }
  if (((owner && s.name === owner.name) || s.name === 'constructor' || s.name === '__init__')) {
    return `${s.id} is a constructor: uses (new ${owner?.name ?? s.name}(…)) are recorded against the class, not this constructor${deleting ? '' : '; rename the class instead'}`;
  }
  if (/@Override\b/.test(head) || (family === 'ecma' && /\boverride\s/.test(head))) return `${s.id} overrides a method of a supertype (@Override / override), which may be outside this repository`;
  if (family === 'python' && /^__\w+__$/.test(s.name)) return `${s.name} is a protocol method Python calls implicitly`;
  if (family === 'go' && s.kind === 'method') {
    if (GO_PROTOCOL.has(s.name)) return `${s.name} may satisfy a standard-library interface (fmt.Stringer, error, io, sort, encoding…), which Go checks implicitly`;
    const found = ctx.engine.query('search_symbols', { query: s.name, limit: 100 }, { repo: ctx.repo }) as { results?: { id: string; name: string; kind: string }[] };
    for (const r of found.results ?? []) {
      if (r.name !== s.name || r.kind !== 'method') continue;
      const oid = ownerIdOf(r.id);
      const o = oid ? ctx.engine.getNode(ctx.repo, oid) : null;
      if (o && o.kind === 'interface') return `interface ${o.name} (${o.path}) requires a method ${s.name}: ${owner?.name ?? 'its type'} may implement it, which Go checks implicitly`;
    }
  }
  return undefined;
}

/** Whether `id` is `owner` or declared inside it (`owner.member`, `owner.member.inner`). */
export function within(id: string, owner: string): boolean {
  return id === owner || id.startsWith(`${owner}.`);
}

/** A line that belongs to the declaration below it: a comment or a decorator/attribute. */
const LEADING = /^\s*(\/\/|\/\*|\*|#|@|--|;|\/\/\/)/;

/** The 1-based line range a deleted declaration takes: its span, the comments and decorators right above it, one blank line. */
export function deletionRange(lines: readonly string[], start: number, end: number): [number, number] {
  let from = start;
  while (from > 1 && LEADING.test(lines[from - 2]!) && !/^\s*#!/.test(lines[from - 2]!)) from--;
  let to = end;
  const blank = (n: number): boolean => n >= 1 && n <= lines.length && lines[n - 1]!.trim() === '';
  if (blank(to + 1) && (from === 1 || blank(from - 1))) to++;
  else if (blank(from - 1) && to === lines.length) from--;
  return [from, to];
}

interface DeleteArgs {
  id: string;
  cascade?: 'off' | 'preview' | 'apply' | undefined;
  dry_run?: boolean | undefined;
  allow_parse_errors?: boolean | undefined;
}

/**
 * The references to `id` from outside `set` (the declarations being deleted, members included),
 * each with its using node (`user`: the answer's `nodes` entry the row's `from` names).
 */
function usersOutside(ctx: ToolContext, id: string, set: ReadonlySet<string>): (UsageRow & { user: NodeSummary | undefined })[] {
  const usages = ctx.engine.query('find_usages', { id, limit: 1000, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
  const users = new Map(usages.nodes.map((n) => [n.id, n]));
  return usages.usages.filter((u) => ![...set].some((owner) => within(u.from, owner))).map((u) => ({ ...u, user: users.get(u.from) }));
}

async function safeDelete(ctx: ToolContext, args: DeleteArgs): Promise<Record<string, unknown>> {
  const s = await freshDeclaration(ctx, args.id, 'safe_delete_symbol deletes declarations');
  const hierarchy = (id: string): string[] => overrideFamily(ctx, id, 20).map((r) => r.method.id);
  if (s.kind === 'method') {
    const related = hierarchy(s.id);
    if (related.length > 0) throw new ToolInputError('hierarchy', `${s.id} overrides or is overridden by ${related.join(', ')}: deleting it would change what those calls reach`);
  }
  const contract = contractRefusal(ctx, s, true);
  if (contract) throw new ToolInputError('hierarchy', `${contract}: deleting it could break the build or change behaviour; nothing was written`);
  const set = new Set([s.id]);
  const users = usersOutside(ctx, s.id, set);
  if (users.length === 0) {
    // The graph may miss a use (a dynamic member access, an alias it did not resolve): a mention of
    // the name as an identifier anywhere else keeps the declaration.
    const mentioned = tokenMentions(ctx, s.name, [{ path: s.file_path, from: s.start_line, to: s.end_line }], localOf(s.id).includes('.') ? undefined : false);
    if (mentioned.length > 0) {
      throw new ToolInputError(
        'in_use',
        `${s.id} has no reference in the graph, but ${s.name} is mentioned as an identifier at ${mentioned
          .slice(0, 5)
          .map((m) => `${m.path}:${m.line}`)
          .join(', ')}${mentioned.length > 5 ? ', …' : ''}: that may be a use the graph did not resolve. Check those lines (and remove the uses) first; nothing was written`,
      );
    }
  }
  if (users.length > 0) {
    const tests = users.filter((u) => u.user?.is_test || /(^|\/)(tests?|__tests__|spec)\/|[._-](test|spec)\.|_test\.go$|(^|\/)test_[^/]*\.py$/.test(u.path));
    throw new ToolInputError(
      'in_use',
      `${s.id} is still used at ${users.length} place${users.length === 1 ? '' : 's'} (${users
        .slice(0, 8)
        .map((u) => `${u.path}:${u.line} by ${u.user?.qual_name ?? u.from}`)
        .join(', ')}${users.length > 8 ? ', …' : ''})` +
        (tests.length === users.length ? ': only tests use it; delete or change those tests first' : ': remove those uses first') +
        '; nothing was written',
    );
  }

  // What it leaves unused: declarations it references that nothing else does (to a fixed point).
  const orphans: NodeSummary[] = [];
  if ((args.cascade ?? 'off') !== 'off') {
    const queue = [s.id];
    while (queue.length > 0 && orphans.length < 200) {
      const from = queue.shift()!;
      const fromPath = ctx.engine.getNode(ctx.repo, from)?.path ?? s.file_path;
      const members = ctx.engine.fileSymbols(ctx.repo, fromPath).filter((n) => within(n.id, from)).map((n) => n.id);
      const outgoing = [from, ...members].flatMap((id) => ctx.engine.edges(ctx.repo, id, { direction: 'out', kinds: ['calls', 'references', 'instantiates', 'typed_as', 'returns'] }));
      for (const e of outgoing) {
        if (set.has(e.to) || [...set].some((owner) => within(e.to, owner))) continue;
        const node = ctx.engine.getNode(ctx.repo, e.to);
        if (!node || node.kind === 'file' || node.exported || node.is_test || node.name === 'main' || node.name === 'init' || !node.path) continue;
        if (node.kind === 'method' && hierarchy(node.id).length > 0) continue;
        const candidate = new Set([...set, node.id]);
        if (usersOutside(ctx, node.id, candidate).length > 0) continue;
        const spans = [...candidate].map((id) => ctx.engine.getNode(ctx.repo, id)).filter((n) => n !== null).map((n) => ({ path: n.path, from: n.start_line, to: n.end_line }));
        if (tokenMentions(ctx, node.name, spans, localOf(node.id).includes('.') ? undefined : false).length > 0) continue;
        set.add(node.id);
        queue.push(node.id);
        const summary = (ctx.engine.query('get_symbol', { id: node.id }, { repo: ctx.repo }) as GetSymbolResult).node;
        orphans.push(summary);
      }
    }
  }
  const targets = args.cascade === 'apply' ? [s, ...orphans] : [s];
  // Nested targets go with their owner.
  const outermost = targets.filter((t) => !targets.some((o) => o.id !== t.id && within(t.id, o.id)));
  const byFile = new Map<string, NodeSummary[]>();
  for (const t of outermost) byFile.set(t.file_path, [...(byFile.get(t.file_path) ?? []), t]);
  const plans: PlannedWrite[] = [];
  const deleted: { id: string; path: string; lines: [number, number] }[] = [];
  for (const [path, nodes] of [...byFile.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const t = resolveWritable(ctx.root, path, { create: false });
    const lines = t.current!.toString('utf8').split('\n');
    const ranges = nodes.map((n) => ({ n, range: deletionRange(lines, n.start_line, n.end_line) })).sort((a, b) => b.range[0] - a.range[0]);
    for (const { n, range } of ranges) {
      lines.splice(range[0] - 1, range[1] - range[0] + 1);
      deleted.push({ id: n.id, path, lines: range });
    }
    // The imports only the deleted code used go too (Go refuses an unused import, TS under noUnusedLocals).
    plans.push({ target: t, after: pruneImports(path, t.current, Buffer.from(lines.join('\n'), 'utf8')).bytes });
  }
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  const store = ctx.session?.store;
  if (store && !args.dry_run) {
    for (const d of deleted) store.recordEdit('symbol', d.id, d.path, 'safe_delete_symbol');
    for (const w of written) store.recordEdit('file', w.path, w.path, 'safe_delete_symbol');
  }
  return {
    status: args.dry_run ? 'would_apply' : 'applied',
    deleted: deleted.sort((a, b) => a.path.localeCompare(b.path) || a.lines[0] - b.lines[0]),
    ...(s.exported ? { note: `${s.name} was exported: nothing in this repository used it, but code outside it may have` } : {}),
    ...(args.cascade === 'preview' ? { orphans: orphans.map((o) => ({ id: o.id, path: o.file_path, line: o.start_line })) } : {}),
    ...(args.cascade === 'apply' ? { cascaded: orphans.map((o) => o.id) } : {}),
    files: written.map((w) => ({ ...w, reindexed: args.dry_run !== true })),
  };
}

/** A line of another file that mentions the example without calling it (a registration, table entry, export or import). */
interface WiringLine {
  path: string;
  line: number;
  text: string;
  kind: 'import' | 'reference';
}

/** Import statements of the supported languages (the example's name is added to their list). */
const IMPORT_LINE = /^\s*(import\b|from\s+\S+\s+import\b|export\s*\{|use\s)/;


/** The registrations of `s`: lines elsewhere that mention it without calling it. */
function wiringOf(ctx: ToolContext, s: NodeSummary): WiringLine[] {
  const usages = ctx.engine.query('find_usages', { id: s.id, limit: 200, include_tests: false }, { repo: ctx.repo }) as FindUsagesResult;
  const out: WiringLine[] = [];
  const seen = new Set<string>();
  for (const u of usages.usages) {
    if (u.path === s.file_path || seen.has(`${u.path}:${u.line}`)) continue;
    seen.add(`${u.path}:${u.line}`);
    const text = fs.readFileSync(resolveWritable(ctx.root, u.path, { create: false }).abs, 'utf8').split('\n')[u.line - 1] ?? '';
    const cols = identifierColumns(text, s.name);
    if (cols.length === 0) continue;
    if (IMPORT_LINE.test(text)) out.push({ path: u.path, line: u.line, text, kind: 'import' });
    else if (cols.every((c) => !/^\s*\(/.test(text.slice(c + s.name.length)))) out.push({ path: u.path, line: u.line, text, kind: 'reference' });
  }
  return out;
}

/** The tests that reach `s`, with their spans. */
function testsOf(ctx: ToolContext, s: NodeSummary): { id: string; path: string; start_line: number; end_line: number; name: string }[] {
  return [...new Set(ctx.engine.edges(ctx.repo, s.id, { direction: 'in', kinds: ['tests'] }).map((e) => e.from))]
    .map((id) => ctx.engine.getNode(ctx.repo, id))
    .filter((n): n is NonNullable<typeof n> => n !== null && n.kind !== 'file')
    .map((n) => ({ id: n.id, path: n.path, start_line: n.start_line, end_line: n.end_line, name: n.name }));
}

/** Lines `from..to` (1-based) of a repository file. */
function linesOfFile(ctx: ToolContext, rel: string, from: number, to: number): string {
  return fs.readFileSync(resolveWritable(ctx.root, rel, { create: false }).abs, 'utf8').split('\n').slice(from - 1, to).join('\n');
}

async function pattern(ctx: ToolContext, id: string): Promise<Record<string, unknown>> {
  const s = await freshDeclaration(ctx, id, 'pick a declaration as the example');
  return {
    example: { id: s.id, kind: s.kind, path: s.file_path, start_line: s.start_line, end_line: s.end_line, source: linesOfFile(ctx, s.file_path, s.start_line, s.end_line) },
    wiring: wiringOf(ctx, s),
    tests: testsOf(ctx, s).map((t) => ({ ...t, source: linesOfFile(ctx, t.path, t.start_line, t.end_line) })),
  };
}

/**
 * `text` with `old` renamed to `now` as a whole identifier, and its capitalised / lower-first
 * forms too; with `embedded` also inside test names that embed it (`TestOpen`, `test_open_works`).
 */
function renameAll(text: string, old: string, now: string, embedded = false): string {
  const upper = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);
  const lower = (w: string): string => w.charAt(0).toLowerCase() + w.slice(1);
  const forms = new Map<string, string>([
    [old, now],
    [upper(old), upper(now)],
    [lower(old), lower(now)],
  ]);
  const testName = /^(Test|test|Benchmark|it_|should)|(Test|Spec|_test)$/;
  return text.replace(/[A-Za-z0-9_$]+/g, (token) => {
    const whole = forms.get(token);
    if (whole !== undefined) return whole;
    if (!embedded || !testName.test(token)) return token;
    for (const [a, b] of forms) if (token.includes(a)) return token.replace(a, b);
    return token;
  });
}

async function scaffold(
  ctx: ToolContext,
  args: { id: string; new_name: string; tests?: boolean | undefined; wire?: boolean | undefined; dry_run?: boolean | undefined; allow_parse_errors?: boolean | undefined },
): Promise<Record<string, unknown>> {
  if (!IDENTIFIER.test(args.new_name)) throw new ToolInputError('invalid_argument', `new_name ${JSON.stringify(args.new_name)} is not an identifier`);
  const s = await freshDeclaration(ctx, args.id, 'pick a declaration as the example');
  const clash = declaredBeside(ctx, s, args.new_name);
  if (clash) throw new ToolInputError('conflict', `${s.file_path} already declares ${args.new_name} beside ${s.name} (${clash})`);
  // Insertions per file: after line N, these lines (applied bottom-up so line numbers hold).
  const inserts = new Map<string, { after: number; text: string }[]>();
  const replaces = new Map<string, { line: number; text: string }[]>();
  const insert = (path: string, after: number, text: string): void => void inserts.set(path, [...(inserts.get(path) ?? []), { after, text }]);
  insert(s.file_path, s.end_line, `\n${renameAll(linesOfFile(ctx, s.file_path, s.start_line, s.end_line), s.name, args.new_name)}`);
  const tests = args.tests === false ? [] : testsOf(ctx, s);
  for (const t of tests) insert(t.path, t.end_line, `\n${renameAll(linesOfFile(ctx, t.path, t.start_line, t.end_line), s.name, args.new_name, true)}`);
  const wiring = wiringOf(ctx, s);
  if (args.wire) {
    for (const w of wiring) {
      if (w.kind === 'import') {
        const at = identifierColumns(w.text, s.name)[0]!;
        const end = at + s.name.length;
        replaces.set(w.path, [...(replaces.get(w.path) ?? []), { line: w.line, text: `${w.text.slice(0, end)}, ${args.new_name}${w.text.slice(end)}` }]);
      } else insert(w.path, w.line, renameOnLine(w.text, s.name, args.new_name));
    }
  }
  const paths = [...new Set([...inserts.keys(), ...replaces.keys()])].sort();
  const plans: PlannedWrite[] = [];
  for (const path of paths) {
    const t = resolveWritable(ctx.root, path, { create: false });
    const lines = t.current!.toString('utf8').split('\n');
    for (const r of replaces.get(path) ?? []) lines[r.line - 1] = r.text;
    for (const ins of (inserts.get(path) ?? []).sort((a, b) => b.after - a.after)) lines.splice(ins.after, 0, ...ins.text.split('\n'));
    plans.push({ target: t, after: Buffer.from(lines.join('\n'), 'utf8') });
  }
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  const store = ctx.session?.store;
  if (store && !args.dry_run) for (const w of written) store.recordEdit('file', w.path, w.path, 'scaffold');
  return {
    status: args.dry_run ? 'would_apply' : 'applied',
    example: s.id,
    new_id: `${s.id.slice(0, s.id.length - s.name.length)}${args.new_name}`,
    tests_copied: tests.map((t) => t.id),
    wiring: args.wire ? wiring.map((w) => ({ path: w.path, line: w.line, kind: w.kind })) : [],
    ...(args.wire || wiring.length === 0 ? {} : { wiring_not_applied: wiring.map((w) => ({ path: w.path, line: w.line, text: w.text.trim() })) }),
    files: written,
    diffs: plans.map((p) => unifiedDiff(p.target.rel, p.target.current!.toString('utf8'), p.after!.toString('utf8'), false).diff),
  };
}
