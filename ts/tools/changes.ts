/**
 * What changed: `detect_changes` maps a git diff (the working tree, or the staged changes, against
 * a base) onto declarations — added, modified, deleted — by outlining each changed file's old
 * and new versions with the same extractor the index uses.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { outlineOf, type FindUsagesResult, type OutlineSymbol } from '../engine/engine';
import { ConfigError, loadConfig, type GuardRule } from '../config/config';
import { RegexMatcher } from '../engine/engine';
import { git, gitInfo } from '../support/git';
import { globToRegex } from './source-shape';
import { defineTool, repoNameOf, ToolInputError } from './registry';
import type { ToolContext } from '../workspace/context';
import { syncIndex } from '../workspace/writes';

/** git's empty tree: the base of a repository without commits. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';
/** Most files an answer lists. */
const MAX_FILES = 500;
/** Most symbols listed per file. */
const MAX_SYMBOLS_PER_FILE = 200;

/** One hunk's line ranges (`count` 0: a pure insertion or deletion after `start`). */
interface Hunk {
  old_start: number;
  old_count: number;
  new_start: number;
  new_count: number;
}

/** One file of a parsed diff. */
interface DiffFile {
  path: string;
  old_path: string | null;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  binary: boolean;
  additions: number;
  deletions: number;
  hunks: Hunk[];
}

/** A path as git prints it in `---`/`+++` lines: `a/x`, `b/x`, `/dev/null`, or C-quoted. */
function diffPath(raw: string): string | null {
  let p = raw.trim();
  if (p === '/dev/null') return null;
  if (p.startsWith('"') && p.endsWith('"')) p = JSON.parse(p) as string;
  return p.replace(/^[ab]\//, '');
}

/** Parses `git diff --unified=0` output. */
export function parseDiff(text: string): DiffFile[] {
  const files: DiffFile[] = [];
  let cur: DiffFile | undefined;
  let renameFrom: string | undefined;
  let renameTo: string | undefined;
  const start = (): void => {
    cur = { path: '', old_path: null, status: 'modified', binary: false, additions: 0, deletions: 0, hunks: [] };
    files.push(cur);
    renameFrom = renameTo = undefined;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('diff --git ')) {
      start();
      // Until ---/+++ say otherwise (binary and mode-only changes have none): `b/<path>`.
      const m = / b\/(.*)$/.exec(line);
      if (m) cur!.path = cur!.old_path = m[1]!;
      continue;
    }
    if (!cur) continue;
    if (line.startsWith('new file mode')) cur.status = 'added';
    else if (line.startsWith('deleted file mode')) cur.status = 'deleted';
    else if (line.startsWith('rename from ')) renameFrom = line.slice('rename from '.length);
    else if (line.startsWith('rename to ')) {
      renameTo = line.slice('rename to '.length);
      cur.status = 'renamed';
      cur.old_path = renameFrom ?? null;
      cur.path = renameTo;
    } else if (line.startsWith('Binary files ')) cur.binary = true;
    else if (line.startsWith('--- ')) cur.old_path = diffPath(line.slice(4));
    else if (line.startsWith('+++ ')) {
      const p = diffPath(line.slice(4));
      if (p !== null) cur.path = p;
      else cur.path = cur.old_path ?? cur.path;
    } else if (line.startsWith('@@')) {
      const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (m) cur.hunks.push({ old_start: +m[1]!, old_count: m[2] === undefined ? 1 : +m[2], new_start: +m[3]!, new_count: m[4] === undefined ? 1 : +m[4] });
    } else if (line.startsWith('+')) cur.additions++;
    else if (line.startsWith('-')) cur.deletions++;
  }
  for (const f of files) {
    if (f.status === 'added') f.old_path = null;
    if (f.status === 'deleted') f.path = f.old_path ?? f.path;
  }
  return files;
}

/**
 * Whether the lines `from..to` meet one of the hunks on `side`. A hunk with no lines on that side
 * (a pure insertion or deletion after line `start`) touches a declaration only when it falls
 * between two of its lines.
 */
function touches(from: number, to: number, hunks: readonly Hunk[], side: 'old' | 'new'): boolean {
  return hunks.some((h) => {
    const s = side === 'old' ? h.old_start : h.new_start;
    const c = side === 'old' ? h.old_count : h.new_count;
    return c === 0 ? from <= s && to >= s + 1 : from <= s + c - 1 && to >= s;
  });
}

/** One declaration a change touched. */
export interface ChangedSymbol {
  id: string;
  name: string;
  kind: string;
  change: 'added' | 'modified' | 'deleted';
  start_line: number;
  end_line: number;
}

/** The declarations a file's change added, modified or deleted (old and new versions outlined). */
function changedSymbols(repo: string, f: DiffFile, before: Buffer | undefined, after: Buffer | undefined): ChangedSymbol[] | undefined {
  const oldOutline = before && f.old_path ? outlineOf(f.old_path, before) : [];
  const newOutline = after ? outlineOf(f.path, after) : [];
  if (oldOutline === undefined && newOutline === undefined) return undefined;
  const byQualified = (list: OutlineSymbol[] | undefined): Map<string, OutlineSymbol> => new Map((list ?? []).map((s) => [s.local, s]));
  const olds = byQualified(oldOutline);
  const news = byQualified(newOutline);
  const out: ChangedSymbol[] = [];
  const row = (s: OutlineSymbol, path: string, change: ChangedSymbol['change']): ChangedSymbol => ({
    id: `${repo}/${path}::${s.local}`,
    name: s.name,
    kind: s.kind,
    change,
    start_line: s.start_line,
    end_line: s.end_line,
  });
  for (const s of news.values()) {
    const old = olds.get(s.local);
    if (!old) out.push(row(s, f.path, 'added'));
    else if (f.status === 'renamed' || touches(s.start_line, s.end_line, f.hunks, 'new') || touches(old.start_line, old.end_line, f.hunks, 'old')) {
      out.push(row(s, f.path, 'modified'));
    }
  }
  for (const s of olds.values()) if (!news.has(s.local)) out.push(row(s, f.old_path ?? f.path, 'deleted'));
  return out.sort((a, b) => a.start_line - b.start_line || a.id.localeCompare(b.id));
}

/** Runs git, turning a failure into a refusal that names the command. */
async function gitOut(root: string, args: string[]): Promise<string> {
  const r = await git(root, args);
  if (!r.ok) throw new ToolInputError('invalid_argument', `git ${args.join(' ')} failed: ${r.error}`);
  return r.stdout;
}

/** A file's bytes at a revision (`:path` for the index), or undefined when it has none. */
export async function blobAt(root: string, rev: string, path: string): Promise<Buffer | undefined> {
  if (rev === EMPTY_TREE) return undefined;
  const r = await git(root, ['show', `${rev}:./${path}`]);
  return r.ok ? Buffer.from(r.stdout, 'utf8') : undefined;
}

/** The answer of `detect_changes`. */
export async function detectChanges(ctx: ToolContext, args: { base?: string | undefined; staged?: boolean | undefined; paths?: string[] | undefined }): Promise<Record<string, unknown>> {
  const info = await gitInfo(ctx.root);
  if (!info.is_repo) throw new ToolInputError('not_available', `${ctx.root} is not inside a git work tree (${info.reason}): detect_changes compares with git`);
  let base = args.base ?? (info.head ? 'HEAD' : EMPTY_TREE);
  let baseCommit: string | undefined;
  if (base !== EMPTY_TREE) {
    const verified = await git(ctx.root, ['rev-parse', '--verify', '-q', `${base}^{commit}`]);
    if (!verified.ok || verified.stdout.trim() === '') throw new ToolInputError('invalid_argument', `base ${JSON.stringify(base)} is not a commit here (a branch, tag or sha; default HEAD)`);
    baseCommit = verified.stdout.trim();
    base = args.base ?? 'HEAD';
  }
  const pathArgs = args.paths && args.paths.length > 0 ? ['--', ...args.paths] : [];
  const diffArgs = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--unified=0', '--relative', '-M', ...(args.staged ? ['--cached'] : []), base === EMPTY_TREE ? EMPTY_TREE : baseCommit!, ...pathArgs];
  const files = parseDiff(await gitOut(ctx.root, diffArgs));
  if (!args.staged) {
    // Files git does not track yet are added files too.
    const untracked = await gitOut(ctx.root, ['-c', 'core.quotePath=false', 'ls-files', '--others', '--exclude-standard', ...pathArgs]);
    for (const p of untracked.split('\n').filter(Boolean)) {
      files.push({ path: p, old_path: null, status: 'added', binary: false, additions: 0, deletions: 0, hunks: [] });
    }
  }
  files.sort((a, b) => a.path.localeCompare(b.path));
  const repo = repoNameOf(ctx);
  const listed = files.slice(0, MAX_FILES);
  const summary = { files: files.length, additions: 0, deletions: 0, symbols: { added: 0, modified: 0, deleted: 0 } };
  const rows = [];
  for (const f of listed) {
    const before = f.status === 'added' ? undefined : await blobAt(ctx.root, baseCommit ?? EMPTY_TREE, f.old_path ?? f.path);
    let after: Buffer | undefined;
    if (f.status !== 'deleted') {
      if (args.staged) after = await blobAt(ctx.root, '', f.path);
      else {
        try {
          after = fs.readFileSync(path.join(ctx.root, f.path));
        } catch {
          after = undefined;
        }
      }
    }
    if (f.hunks.length === 0 && f.status === 'added' && after) {
      f.additions = after.toString('utf8').split('\n').length - (after.length > 0 && after[after.length - 1] === 10 ? 1 : 0);
      f.hunks.push({ old_start: 0, old_count: 0, new_start: 1, new_count: f.additions });
    }
    summary.additions += f.additions;
    summary.deletions += f.deletions;
    const symbols = f.binary ? undefined : changedSymbols(repo, f, before, after);
    for (const s of symbols ?? []) summary.symbols[s.change]++;
    rows.push({
      path: f.path,
      ...(f.old_path && f.old_path !== f.path ? { old_path: f.old_path } : {}),
      status: f.status,
      ...(f.binary ? { binary: true } : {}),
      additions: f.additions,
      deletions: f.deletions,
      hunks: f.hunks.map((h) => ({ old: [h.old_start, h.old_count], new: [h.new_start, h.new_count] })),
      ...(symbols === undefined ? { symbols_unknown: 'no grammar for this file here' } : { symbols: symbols.slice(0, MAX_SYMBOLS_PER_FILE) }),
      ...(symbols && symbols.length > MAX_SYMBOLS_PER_FILE ? { symbols_truncated: true } : {}),
    });
  }
  return {
    base: base === EMPTY_TREE ? 'empty tree (no commits yet)' : base,
    ...(baseCommit ? { base_commit: baseCommit } : {}),
    compared: args.staged ? 'staged changes (the index) against the base' : 'the working tree (untracked files included) against the base',
    summary,
    files: rows,
    truncated: files.length > MAX_FILES,
  };
}

/**
 * Every path a diff touches — added, modified, renamed (both names) and deleted — for `syncIndex`:
 * the index must drop what the change deleted or renamed away, not only read what it wrote.
 */
export function touchedPaths(files: readonly { path: string; old_path?: string | null }[]): string[] {
  return [...new Set(files.flatMap((f) => (f.old_path && f.old_path !== f.path ? [f.path, f.old_path] : [f.path])))];
}

/** Callers of a changed declaration from which its file counts as high risk when nothing tests it. */
const HIGH_FAN_IN = 10;
/** Callers and callees listed per declaration. */
const NEIGHBOURS = 5;

/** What reaches and what is reached from one changed declaration. */
function neighbourhood(ctx: ToolContext, id: string): Record<string, unknown> | undefined {
  if (ctx.engine.getNode(ctx.repo, id) === null) return undefined;
  const usages = ctx.engine.query('find_usages', { id, context: 'call', limit: NEIGHBOURS, include_tests: false }, { repo: ctx.repo }) as FindUsagesResult;
  const callees = ctx.engine.edges(ctx.repo, id, { direction: 'out', kinds: ['calls'] });
  const tests = ctx.engine.edges(ctx.repo, id, { direction: 'in', kinds: ['tests'] });
  return {
    callers: { total: usages.total, top: usages.usages.map((u) => ({ id: u.from, path: u.path, line: u.line })) },
    callees: { total: callees.length, top: [...new Set(callees.map((e) => e.to))].slice(0, NEIGHBOURS) },
    tests: [...new Set(tests.map((e) => e.from))].slice(0, NEIGHBOURS),
  };
}

/** The answer of `diff_context`: detect_changes (or the `changes` already detected) with each declaration's callers, callees and tests, and a risk per file. */
export async function diffContext(
  ctx: ToolContext,
  args: { base?: string | undefined; staged?: boolean | undefined; paths?: string[] | undefined; max_symbols?: number | undefined },
  detected?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const changes = detected ?? (await detectChanges(ctx, args));
  const files = changes.files as { path: string; status: string; symbols?: { id: string; change: string; kind: string; name: string }[] }[];
  // The graph must see the working tree before it is asked about it.
  if (!args.staged) await syncIndex(ctx, touchedPaths(files));
  let budget = args.max_symbols ?? 50;
  let omitted = 0;
  const out = files.map((f) => {
    const reasons: string[] = [];
    let level = 0;
    const symbols = (f.symbols ?? []).map((s) => {
      if (s.change === 'deleted') {
        reasons.push(`${s.name} deleted: anything still calling it breaks (search_text finds uses the graph lost)`);
        level = Math.max(level, 1);
        return s;
      }
      if (budget <= 0) {
        omitted++;
        return s;
      }
      budget--;
      const around = neighbourhood(ctx, s.id) as { callers: { total: number }; tests: string[] } | undefined;
      if (around && s.change === 'modified') {
        const untested = around.tests.length === 0;
        if (around.callers.total >= HIGH_FAN_IN && untested) {
          level = 2;
          reasons.push(`${s.name} changed, ${around.callers.total} callers, no test reaches it`);
        } else if (around.callers.total > 0 && untested) {
          level = Math.max(level, 1);
          reasons.push(`${s.name} changed, ${around.callers.total} caller${around.callers.total === 1 ? '' : 's'}, no test reaches it`);
        }
      }
      return { ...s, ...(around ?? {}) };
    });
    return { ...f, symbols, risk: { level: ['low', 'medium', 'high'][level], reasons } };
  });
  return { ...changes, files: out, ...(omitted > 0 ? { symbols_without_context: omitted } : {}) };
}

/** Edge kinds through which code depends on other code (what a boundary forbids). */
const DEPENDENCY_KINDS = ['imports', 'calls', 'references', 'instantiates', 'extends', 'implements', 'typed_as', 'returns'];
/** Most violations an answer lists per rule. */
const MAX_VIOLATIONS = 100;

/** A matcher for guard paths: globs (`src/**\/*.ts`, `*.go`) or path prefixes (`src/ui/`). */
function pathMatcher(specs: readonly string[]): (p: string) => boolean {
  const tests = specs.map((spec) => {
    if (/[*?[]/.test(spec)) {
      const m = new RegexMatcher(globToRegex(spec));
      return (p: string): boolean => m.test(p);
    }
    const prefix = spec.replace(/^\.\//, '').replace(/\/+$/, '');
    return (p: string): boolean => p === prefix || p.startsWith(`${prefix}/`);
  });
  return (p) => tests.some((t) => t(p));
}

/** One broken guard rule. */
interface Violation {
  rule: string;
  kind: GuardRule['kind'];
  severity: GuardRule['severity'];
  message: string;
  at?: { id: string; path: string; line: number };
  to?: string;
  files?: string[];
}

/** The answer of `check_guards`, against `detected` changes when given (else detected here). */
export async function checkGuards(
  ctx: ToolContext,
  args: { base?: string | undefined; staged?: boolean | undefined; all?: boolean | undefined },
  detected?: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  let rules: GuardRule[];
  try {
    rules = loadConfig(ctx.root).guards ?? [];
  } catch (error) {
    if (error instanceof ConfigError) throw new ToolInputError('invalid_argument', error.message);
    throw error;
  }
  if (rules.length === 0) return { rules: 0, passed: true, violations: [], note: 'no guards.rules in .gortex.yaml: nothing to check' };
  const changes = args.all ? undefined : (detected ?? (await detectChanges(ctx, args)));
  const changedFiles = (changes?.files ?? []) as { path: string; old_path?: string; status: string; symbols?: { id: string; change: string }[] }[];
  if (changes && !args.staged) await syncIndex(ctx, touchedPaths(changedFiles));
  const repo = repoNameOf(ctx);
  const violations: Violation[] = [];
  const skipped: string[] = [];
  for (const rule of rules) {
    const inSource = pathMatcher(rule.source);
    const inTarget = pathMatcher(rule.target);
    const exempt = pathMatcher(rule.except);
    const applies = (p: string): boolean => inSource(p) && !exempt(p);
    const message = rule.message ?? (rule.kind === 'boundary' ? `${rule.source.join(', ')} must not depend on ${rule.target.join(', ')}` : `a change to ${rule.source.join(', ')} needs a change to ${rule.target.join(', ')}`);
    const found: Violation[] = [];
    if (rule.kind === 'co-change') {
      if (!changes) {
        skipped.push(`${rule.name}: co-change rules compare a diff; run without all`);
        continue;
      }
      const touched = changedFiles.flatMap((f) => [f.path, ...(f.old_path ? [f.old_path] : [])]);
      const sources = touched.filter(applies);
      if (sources.length > 0 && !touched.some(inTarget)) found.push({ rule: rule.name, kind: rule.kind, severity: rule.severity, message, files: [...new Set(sources)] });
    } else {
      // The declarations to check: the changed ones under source, or (all) every one there.
      const ids: string[] = [];
      if (changes) {
        for (const f of changedFiles) {
          if (f.status === 'deleted' || !applies(f.path)) continue;
          ids.push(`${repo}/${f.path}`);
          for (const s of f.symbols ?? []) if (s.change !== 'deleted') ids.push(s.id);
        }
      } else {
        for (const file of ctx.engine.fileNodes(ctx.repo, [])) {
          if (!applies(file.path)) continue;
          ids.push(file.id, ...ctx.engine.fileSymbols(ctx.repo, file.path).map((n) => n.id));
        }
      }
      for (const id of ids) {
        if (ctx.engine.getNode(ctx.repo, id) === null) continue;
        for (const e of ctx.engine.edges(ctx.repo, id, { direction: 'out', kinds: DEPENDENCY_KINDS })) {
          const to = ctx.engine.getNode(ctx.repo, e.to);
          if (!to || !to.path || !inTarget(to.path)) continue;
          found.push({ rule: rule.name, kind: rule.kind, severity: rule.severity, message, at: { id, path: e.path, line: e.line }, to: e.to });
        }
      }
    }
    violations.push(...found.slice(0, MAX_VIOLATIONS));
  }
  return {
    rules: rules.length,
    checked: args.all ? 'every declaration under each rule\'s source' : `the changes against ${changes?.base ?? 'HEAD'}`,
    passed: !violations.some((v) => v.severity === 'error'),
    violations,
    ...(skipped.length > 0 ? { not_checked: skipped } : {}),
  };
}

/** The change family. */
export const changeTools = [
  defineTool({
    name: 'detect_changes',
    category: 'review',
    effect: 'read',
    description:
      'What a git diff changed, as declarations: each changed file (added, modified, deleted, renamed; hunks) with the functions, methods and types it added, modified or deleted. ' +
      'Compares the working tree (untracked files included) or the staged changes with a base (default HEAD).',
    input: {
      base: z.string().optional().describe('A commit, branch or tag to compare with (default HEAD)'),
      staged: z.boolean().optional().describe('Compare the staged changes (the index) instead of the working tree'),
      paths: z.array(z.string()).max(100).optional().describe('Only these paths or folders'),
    },
    handler: (ctx, args) => detectChanges(ctx, args),
  }),
  defineTool({
    name: 'diff_context',
    category: 'review',
    effect: 'read',
    description:
      'A git diff with what surrounds it: detect_changes plus, for each changed declaration, its callers, callees and the tests that reach it, and a risk per file ' +
      '(high: a changed declaration with many callers and no test; medium: callers but no test, or a deletion).',
    input: {
      base: z.string().optional().describe('A commit, branch or tag to compare with (default HEAD)'),
      staged: z.boolean().optional().describe('Compare the staged changes (the index) instead of the working tree'),
      paths: z.array(z.string()).max(100).optional().describe('Only these paths or folders'),
      max_symbols: z.number().int().min(1).max(500).optional().describe('Declarations given callers and callees (default 50); the rest are listed bare'),
    },
    handler: (ctx, args) => diffContext(ctx, args),
  }),
  defineTool({
    name: 'check_guards',
    category: 'review',
    effect: 'read',
    description:
      'Check the guard rules of .gortex.yaml (guards.rules: boundary — code under source must not depend on code under target; co-change — a change under source needs one under target) ' +
      'against the current changes (or, with all, against every declaration). passed is false when an error-severity rule is broken.',
    input: {
      base: z.string().optional().describe('A commit, branch or tag to compare with (default HEAD)'),
      staged: z.boolean().optional().describe('Check the staged changes instead of the working tree'),
      all: z.boolean().optional().describe('Check boundary rules against every declaration, not only the changed ones'),
    },
    handler: (ctx, args) => checkGuards(ctx, args),
  }),
];

