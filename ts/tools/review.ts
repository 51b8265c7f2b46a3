/**
 * The review gate. `review` runs the engine's correctness rulepack (`analyze kind=review`: AST
 * detectors, then a graph pass that drops what cannot happen) over a changeset — the working
 * tree or the index against a base, a pasted unified diff already applied to the working tree,
 * or whole files under a path — and answers line-anchored findings with a BLOCK / REVIEW /
 * APPROVE verdict. Against a base, findings the files already had there are listed apart as
 * pre-existing and do not count. `suppress_finding` keeps a durable per-repository list of
 * findings judged false positives, by fingerprint (rule, file, symbol, line text), so a
 * suppression survives the code moving; every review and `analyze kind=review` leaves them out.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../support/atomic-write';
import { withFileLock } from '../support/file-lock';
import { gortexHome } from '../support/home';
import type { ToolContext } from '../workspace/context';
import { syncIndex } from '../workspace/writes';
import { detectChanges, touchedPaths } from './changes';
import { prFilesInput, symbolsOfPrFiles } from './pr';
import { defineTool, ToolInputError } from './registry';
import { critiqueFindings, modelFindings, REVIEW_ORDER, verdictOf, worse } from './review-llm';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** One changed file as the engine's review takes it. */
interface ReviewFile {
  path: string;
  lines: [number, number][];
  old_path?: string;
}

/** A durable suppression. */
export interface Suppression {
  fingerprint: string;
  rule: string;
  path: string;
  symbol?: string;
  source: string;
  reason: string;
  created_at: string;
}

/** Where suppressions live: one file for every repository, keyed by root. */
function suppressionsFile(): string {
  return path.join(gortexHome(), 'review', 'suppressions.json');
}

/** Every suppression, by repository root (null-prototype). */
function readAll(file: string): Record<string, Suppression[]> {
  const out = Object.create(null) as Record<string, Suppression[]>;
  let parsed: Json;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch {
    return out;
  }
  const repos = parsed?.repos;
  if (!repos || typeof repos !== 'object') return out;
  for (const [root, list] of Object.entries(repos as Record<string, unknown>)) {
    if (Array.isArray(list)) out[root] = list.filter((s: Json) => typeof s?.fingerprint === 'string') as Suppression[];
  }
  return out;
}

/** This repository's suppressions. */
export function suppressionsOf(root: string): Suppression[] {
  return readAll(suppressionsFile())[root] ?? [];
}

/** Applies `change` to this repository's list under the file lock and returns its result. */
function updateSuppressions<T>(root: string, change: (list: Suppression[]) => T): T {
  const file = suppressionsFile();
  fs.mkdirSync(path.dirname(file), { recursive: true });
  return withFileLock(file, () => {
    const all = readAll(file);
    const list = all[root] ?? [];
    const result = change(list);
    all[root] = list;
    if (list.length === 0) delete all[root];
    writeFileAtomic(file, `${JSON.stringify({ version: 1, repos: all }, null, 2)}\n`);
    return result;
  });
}

/** Inclusive line ranges a diff's hunks touched on the new side (a deletion: the lines around it). */
function hunkRanges(hunks: { new: [number, number] }[]): [number, number][] {
  return hunks.map((h) => {
    const [start, count] = h.new;
    return count > 0 ? [start, start + count - 1] : [Math.max(1, start), start + 1];
  });
}

/** A pasted unified diff's files, checked against the working tree. */
function filesFromPastedDiff(root: string, diff: string): ReviewFile[] {
  type Parsed = ReviewFile & { added: [number, string][]; deleted: boolean };
  const out: Parsed[] = [];
  let cur: Parsed | undefined;
  let oldPath: string | undefined;
  let next = 0;
  const strip = (p: string): string => p.trim().replace(/^"|"$/g, '').replace(/^[ab]\//, '');
  for (const raw of diff.split('\n')) {
    const line = raw.replace(/\r$/, '');
    if (line.startsWith('--- ')) {
      oldPath = line.slice(4).trim() === '/dev/null' ? undefined : strip(line.slice(4));
    } else if (line.startsWith('+++ ')) {
      const target = line.slice(4).trim();
      cur = { path: target === '/dev/null' ? (oldPath ?? '') : strip(target), lines: [], added: [], deleted: target === '/dev/null' };
      if (oldPath && oldPath !== cur.path && !cur.deleted) cur.old_path = oldPath;
      out.push(cur);
    } else if (line.startsWith('@@')) {
      const m = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@/.exec(line);
      if (!m || !cur) throw new ToolInputError('invalid_argument', `diff: hunk header ${JSON.stringify(line.slice(0, 60))} is not \`@@ -a,b +c,d @@\` after a \`+++\` line`);
      next = Number(m[1]);
      if (m[2] === '0') cur.lines.push([Math.max(1, next), next + 1]);
    } else if (cur && line.startsWith('+')) {
      cur.added.push([next, line.slice(1)]);
      cur.lines.push([next, next]);
      next++;
    } else if (cur && line.startsWith('-')) {
      cur.lines.push([Math.max(1, next - 1), next]);
    } else if (cur && line.startsWith(' ')) {
      next++;
    }
  }
  if (out.length === 0) throw new ToolInputError('invalid_argument', 'diff: no file headers (`--- a/…` / `+++ b/…`) found; paste a unified diff such as `git diff` prints');
  const files: ReviewFile[] = [];
  for (const f of out) {
    if (f.deleted || f.path === '') continue;
    if (path.isAbsolute(f.path) || f.path.split('/').includes('..')) {
      throw new ToolInputError('invalid_argument', `diff: path ${JSON.stringify(f.path)} must be relative to the repository root, without ..`);
    }
    let text: string;
    try {
      text = fs.readFileSync(path.join(root, f.path), 'utf8');
    } catch {
      throw new ToolInputError('invalid_argument', `diff: ${f.path} is not in the working tree; apply the diff first (git apply) or review with base`);
    }
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const off = f.added.find(([n, t]) => lines[n - 1] !== t);
    if (off) {
      throw new ToolInputError(
        'invalid_argument',
        `diff: line ${off[0]} of ${f.path} is not the diff's added line; the review reads the working tree, so apply the diff first (git apply) or review with base`,
      );
    }
    files.push({ path: f.path, lines: f.lines, ...(f.old_path ? { old_path: f.old_path } : {}) });
  }
  return files;
}

/** The caller's fingerprints and the repository's durable suppressions. */
function withSuppressions(ctx: ToolContext, given: unknown): string[] {
  return [...((given as string[] | undefined) ?? []), ...suppressionsOf(ctx.root).map((s) => s.fingerprint)];
}

/** The engine's review arguments every entry point shares. */
function rulepackArgs(ctx: ToolContext, args: Json): Record<string, unknown> {
  const out: Record<string, unknown> = { kind: 'review', suppressed: withSuppressions(ctx, args.suppressed) };
  for (const k of ['rules', 'min_severity', 'include_dropped', 'limit']) if (args[k] !== undefined) out[k] = args[k];
  return out;
}

/** `analyze kind=review` with this repository's suppressions added. */
export function analyzeReview(ctx: ToolContext, args: Record<string, unknown>): unknown {
  return ctx.engine.query('analyze', { ...args, suppressed: withSuppressions(ctx, args.suppressed) }, { repo: ctx.repo });
}

/** With `use_llm`, the model's relocated findings folded into `result` (they can raise the verdict to REVIEW, never to BLOCK). */
async function withModel(ctx: ToolContext, args: Json, files: readonly ReviewFile[], result: Json): Promise<Json> {
  if (!args.use_llm) return result;
  const extra = await modelFindings(ctx, files, result.findings ?? []);
  if (extra.findings.length === 0) return { ...result, llm: extra.llm };
  const findings = [...(result.findings as Json[]), ...extra.findings];
  const verdict = worse(REVIEW_ORDER, result.verdict as (typeof REVIEW_ORDER)[number], verdictOf(extra.findings));
  return { ...result, verdict, findings, llm: extra.llm };
}

/** Reviews a changeset: the answer of `review`. */
export async function runReview(ctx: ToolContext, args: Json): Promise<Json> {
  const given = [args.diff !== undefined, args.base !== undefined || args.staged === true].filter(Boolean).length;
  if (given > 1) throw new ToolInputError('invalid_argument', 'pass a pasted diff or base/staged, not both');
  const common = rulepackArgs(ctx, args);
  if (args.diff !== undefined) {
    const files = filesFromPastedDiff(ctx.root, String(args.diff));
    await syncIndex(ctx, files.map((f) => f.path));
    const result = ctx.engine.query('analyze', { ...common, files }, { repo: ctx.repo }) as Json;
    return { reviewed: 'the pasted diff, read from the working tree', files: files.length, ...(await withModel(ctx, args, files, result)) };
  }
  if (args.scope !== undefined && args.base === undefined && args.staged !== true) {
    const result = ctx.engine.query('analyze', { ...common, path_prefix: args.scope }, { repo: ctx.repo }) as Json;
    return {
      reviewed: `every supported file under ${JSON.stringify(args.scope || '.')}`,
      ...result,
      ...(args.use_llm ? { llm: { used: false, reason: 'use_llm reviews changed lines: pass base or a diff, not scope alone' } } : {}),
    };
  }
  const changes = (await detectChanges(ctx, { base: args.base, staged: args.staged, paths: args.scope ? [args.scope] : undefined })) as Json;
  const changed = (changes.files as Json[]).filter((f) => f.status !== 'deleted' && !f.binary);
  const files: ReviewFile[] = changed.map((f) => ({
    path: f.path,
    // Changed lines, and every declaration the change added or modified: removing a guard
    // changes no line of the dereference it protected.
    lines: [
      ...hunkRanges(f.hunks),
      ...((f.symbols ?? []) as Json[]).filter((s) => s.change !== 'deleted').map((s): [number, number] => [s.start_line, s.end_line]),
    ],
    ...(f.old_path ? { old_path: f.old_path } : {}),
  }));
  const compared = `${changes.compared}: ${changes.base}`;
  if (files.length === 0) {
    return { reviewed: compared, verdict: 'APPROVE', findings: [], counts: {}, files: 0, note: `nothing changed against ${changes.base}` };
  }
  if (!args.staged) await syncIndex(ctx, touchedPaths(changes.files as Json[]));
  const result = ctx.engine.query('analyze', { ...common, files, ...(changes.base_commit ? { base: changes.base_commit } : {}) }, { repo: ctx.repo }) as Json;
  return {
    reviewed: compared,
    files: files.length,
    ...(args.staged ? { note: 'staged files are read from the working tree: unstaged edits to them are reviewed too' } : {}),
    ...(await withModel(ctx, args, files, result)),
  };
}

/** One review question, anchored to a changed symbol. */
interface ReviewQuestion {
  kind: 'bridge' | 'hub_risk' | 'surprising' | 'thin_community' | 'untested_hotspot';
  severity: 'HIGH' | 'MEDIUM' | 'LOW';
  symbol: string;
  path: string;
  line: number;
  question: string;
  evidence: string;
}

const SEVERITY_ORDER = { HIGH: 0, MEDIUM: 1, LOW: 2 } as const;

/** The changed declarations of a changeset (git, or a PR's files, or ids). */
async function changedIds(ctx: ToolContext, args: Json): Promise<string[]> {
  if (args.ids !== undefined) return args.ids as string[];
  if (args.files !== undefined) return symbolsOfPrFiles(ctx, args.files).ids.filter((id) => id.includes('::'));
  const changes = (await detectChanges(ctx, { base: args.base, staged: args.staged })) as Json;
  const ids: string[] = [];
  for (const f of changes.files as Json[]) for (const s of (f.symbols ?? []) as Json[]) if (s.change !== 'deleted') ids.push(s.id);
  if (!args.staged) await syncIndex(ctx, touchedPaths(changes.files as Json[]));
  return ids;
}

/** `suggested_review_questions`: the changeset's graph anomalies as questions a reviewer should ask. */
async function reviewQuestions(ctx: ToolContext, args: Json): Promise<Json> {
  const ids = (await changedIds(ctx, args)).filter((id) => {
    const n = ctx.engine.getNode(ctx.repo, id) as Json;
    return n && (n.kind === 'function' || n.kind === 'method');
  });
  if (ids.length === 0) return { questions: [], total: 0, note: 'no changed function or method the graph knows' };
  const risk = ctx.engine.query('pr_risk', { ids: ids.slice(0, 500) }, { repo: ctx.repo }) as Json;
  const tested = new Map<string, boolean>((risk.review_priorities as Json[]).map((p) => [p.id, p.tested]));
  const hot = new Map<string, Json>();
  for (const file of new Set(ids.map((id) => (ctx.engine.getNode(ctx.repo, id) as Json).path as string))) {
    const r = ctx.engine.query('analyze', { kind: 'hotspots', threshold: 0, limit: 1000, path_prefix: file }, { repo: ctx.repo }) as Json;
    for (const h of r.hotspots as Json[]) hot.set(h.node.id, h);
  }
  const communities = ctx.engine.query('get_communities', { limit: 1000, min_size: 2 }, { repo: ctx.repo }) as Json;
  const sizes = new Map<number, number>(((communities.communities ?? []) as Json[]).map((c) => [c.id, c.size]));
  const questions: ReviewQuestion[] = [];
  for (const id of ids) {
    const h = hot.get(id);
    const node = ctx.engine.getNode(ctx.repo, id) as Json;
    const at = { symbol: id, path: node.path as string, line: node.start_line as number };
    const name = node.name as string;
    const fanIn = (h?.fan_in as number | undefined) ?? 0;
    if (h && (h.betweenness >= 30 || h.crossings >= 2)) {
      questions.push({ kind: 'bridge', severity: h.betweenness >= 60 ? 'HIGH' : 'MEDIUM', ...at, question: `${name} connects parts of the code that otherwise meet rarely: does the change hold for the callers on each side?`, evidence: `betweenness ${Math.round(h.betweenness)}/100, ${h.crossings} community crossings` });
    }
    if (fanIn >= 10) {
      questions.push({ kind: 'hub_risk', severity: fanIn >= 20 ? 'HIGH' : 'MEDIUM', ...at, question: `${name} has ${fanIn} callers: does every one of them still get what it expects (arguments, return, errors)?`, evidence: `${fanIn} callers` });
    }
    if (tested.get(id) === false && (fanIn >= 3 || (h && h.score >= 50))) {
      questions.push({ kind: 'untested_hotspot', severity: 'HIGH', ...at, question: `No test reaches ${name}, which ${fanIn} places call: how is this change verified?`, evidence: `untested, ${fanIn} callers${h ? `, hotspot score ${Math.round(h.score)}` : ''}` });
    }
    const size = h?.community !== undefined && h?.community !== null ? sizes.get(h.community) : undefined;
    if (size !== undefined && size <= 3) {
      questions.push({ kind: 'thin_community', severity: 'LOW', ...at, question: `${name} sits in a cluster of only ${size} symbols: is it in the right module, or is it a stray dependency?`, evidence: `community ${h.community} of ${size}` });
    }
    const top = (p: string): string => p.split('/')[0] ?? p;
    const far = (ctx.engine.edges(ctx.repo, id, { direction: 'in', kinds: ['calls'] }) as Json[])
      .map((e) => ctx.engine.getNode(ctx.repo, e.from) as Json)
      .find((c) => c && c.path && top(c.path) !== top(at.path) && !c.is_test);
    if (far) {
      questions.push({ kind: 'surprising', severity: 'MEDIUM', ...at, question: `${name} is called from ${far.path} (${far.name}), far from where it lives: is that dependency intended, and does the change suit it?`, evidence: `caller ${far.id}` });
    }
  }
  questions.sort((a, b) => SEVERITY_ORDER[a.severity] - SEVERITY_ORDER[b.severity] || a.path.localeCompare(b.path) || a.line - b.line);
  const limit = (args.limit as number | undefined) ?? 30;
  return { questions: questions.slice(0, limit), total: questions.length, symbols: ids.length, truncated: questions.length > limit };
}

/** The review family. */
export const reviewTools = [
  defineTool({
    name: 'review',
    category: 'review',
    effect: 'read',
    description:
      'Review a changeset → line-anchored findings + a BLOCK/REVIEW/APPROVE verdict. Runs the correctness rulepack (null dereference, check-then-act, N+1, unclosed resources, SQL/shell injection, weak crypto, secrets, swallowed errors, logic slips; TS/JS, Python, Go, Java), graph-grounded to drop false positives, over the working tree (or staged changes) against base, a pasted diff, or whole files under scope. Against a base, findings already there are pre_existing and do not count.',
    input: {
      base: z.string().optional().describe('Review the working tree (or, with staged, the index) against this commit, branch or tag (default HEAD)'),
      staged: z.boolean().optional().describe('Review the staged changes'),
      diff: z.string().max(5_000_000).optional().describe('A unified diff (git diff output) already applied to the working tree: its added and changed lines are reviewed'),
      scope: z.string().optional().describe('A path prefix: with base/staged, limit the changeset to it; alone, review every supported file under it'),
      rules: z.array(z.string()).optional().describe('Rule ids or categories to run (default all)'),
      min_severity: z.enum(['info', 'warning', 'error', 'critical']).optional().describe('Lowest severity reported'),
      include_dropped: z.boolean().optional().describe('List the findings the graph pass dropped, with reasons'),
      suppressed: z.array(z.string()).optional().describe('More finding fingerprints to leave out (the durable ones of suppress_finding always are)'),
      limit: z.number().int().min(1).max(5000).optional().describe('Most findings returned (default 200)'),
      use_llm: z.boolean().optional().describe('Also ask the configured language model for defects in the changed lines; its findings are relocated to exact lines, marked grounded: false and capped at warning'),
    },
    handler: (ctx, args) => runReview(ctx, args),
  }),
  defineTool({
    name: 'suggested_review_questions',
    category: 'review',
    effect: 'read',
    description:
      'Prioritised review questions for a changeset, each anchored to a changed function (id, file, line) with HIGH/MEDIUM/LOW severity, from graph anomalies: bridge (links communities), hub_risk (many callers), untested_hotspot (no test reaches it), thin_community, surprising (called from far away).',
    input: {
      base: z.string().optional().describe('The working tree (or, with staged, the index) against this commit (default HEAD)'),
      staged: z.boolean().optional().describe('The staged changes'),
      ids: z.array(z.string()).max(500).optional().describe('Changed symbols, instead of reading git'),
      files: prFilesInput,
      limit: z.number().int().min(1).max(200).optional().describe('Most questions (default 30)'),
    },
    handler: (ctx, args) => reviewQuestions(ctx, args),
  }),
  defineTool({
    name: 'critique_review',
    category: 'review',
    effect: 'read',
    description:
      'Second pass over a review\'s findings by the configured language model: each finding shown with the code around it, kept or dropped with a reason, and the verdict revised. With no model configured it keeps every finding and says how to configure one; a failing model keeps what it did not decide.',
    input: {
      findings: z.array(z.record(z.string(), z.unknown())).max(5000).describe('The findings of a review (review\'s findings[])'),
    },
    handler: (ctx, args) => critiqueFindings(ctx, args.findings),
  }),
  defineTool({
    name: 'suppress_finding',
    category: 'review',
    effect: 'local_write',
    description:
      'Durably silence a review finding as a false positive for this repository (action add), or list / remove suppressions. Keyed by the finding\'s fingerprint (rule, file, symbol, line text), so it survives the finding moving to other lines; review and analyze kind=review leave suppressed findings out.',
    input: {
      action: z.enum(['add', 'list', 'remove']).default('add').describe('add (default), list or remove'),
      fingerprint: z.string().regex(/^[0-9a-f]{16}$/).optional().describe('The finding\'s fingerprint, as review reports it (add, remove)'),
      reason: z.string().max(500).optional().describe('Why it is a false positive (add; required)'),
    },
    handler: async (ctx, args) => {
      const { action, fingerprint, reason } = args as { action: 'add' | 'list' | 'remove'; fingerprint?: string; reason?: string };
      if (action === 'list') return { suppressions: suppressionsOf(ctx.root), total: suppressionsOf(ctx.root).length };
      if (!fingerprint) throw new ToolInputError('invalid_argument', `${action} needs fingerprint (16 hex digits, from a review finding)`);
      if (action === 'remove') {
        const removed = updateSuppressions(ctx.root, (list) => {
          const i = list.findIndex((s) => s.fingerprint === fingerprint);
          return i < 0 ? undefined : list.splice(i, 1)[0];
        });
        if (!removed) throw new ToolInputError('not_found', `no suppression with fingerprint ${fingerprint} in this repository (list them with action: "list")`);
        return { removed };
      }
      if (!reason || reason.trim() === '') throw new ToolInputError('invalid_argument', 'add needs reason: say why the finding is a false positive');
      const current = analyzeReview(ctx, { kind: 'review', limit: 5000, include_dropped: false }) as Json;
      const found = (current.findings as Json[]).find((f) => f.fingerprint === fingerprint) ?? (current.pre_existing as Json[] | undefined)?.find((f) => f.fingerprint === fingerprint);
      const already = suppressionsOf(ctx.root).find((s) => s.fingerprint === fingerprint);
      if (already) return { suppression: already, note: 'already suppressed' };
      if (!found) throw new ToolInputError('not_found', `no current finding has fingerprint ${fingerprint}; run review and copy a finding's fingerprint`);
      const entry: Suppression = {
        fingerprint,
        rule: found.rule,
        path: found.path,
        ...(found.symbol ? { symbol: found.symbol } : {}),
        source: found.source,
        reason: reason.trim(),
        created_at: new Date().toISOString(),
      };
      updateSuppressions(ctx.root, (list) => list.push(entry));
      return { suppression: entry };
    },
  }),
];
