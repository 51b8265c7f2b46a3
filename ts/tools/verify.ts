/**
 * `verify_change`: before a signature changes, check it against every caller and every method
 * that overrides or is overridden by it. Parameters are read from the signatures the index
 * extracted, arguments from each call site's source (the call's parenthesised list, across lines).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import type { FindOverridesResult, FindUsagesResult, GetSymbolResult } from '../engine/engine';
import { target } from './common';
import { importOrder } from './edit';
import { overrideFamily } from './refactor';
import { defineTool, ToolInputError } from './registry';
import type { ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';

/** What a parameter list accepts. */
export interface Params {
  /** Parameters a call must pass. */
  required: number;
  /** Parameters a call may pass (without a variadic one). */
  total: number;
  /** Takes any number more (`...rest`, `*args`, `xs ...T`). */
  variadic: boolean;
}

/** Splits `text` at commas outside brackets and strings. */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let cur = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      cur += ch;
      if (ch === '\\') cur += text[++i] ?? '';
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if ('([{<'.includes(ch)) depth++;
    else if (')]}>'.includes(ch) && !(ch === '>' && text[i - 1] === '=')) depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      parts.push(cur);
      cur = '';
    } else cur += ch;
  }
  parts.push(cur);
  return parts.map((p) => p.trim()).filter((p) => p !== '');
}

/** Languages (by name or file extension) whose comments start with `#`; the others here use slash comments. */
const HASH_COMMENTS = /(^|\.)(python|py|pyi|ruby|rb|sh|bash|r|pl|perl|elixir|ex|exs|nim|cr)$/i;

/**
 * `text` with its comments blanked out (newlines kept), outside strings: `#` comments for the
 * languages that have them (`hint` is a language name or a file path), `//` and `/* *\/` for the rest.
 * A comment inside a parameter or argument list must not count as one, nor its commas split it.
 */
export function withoutComments(text: string, hint: string | undefined): string {
  if (hint === undefined) return text;
  const hash = HASH_COMMENTS.test(hint);
  let out = '';
  let quote: string | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      out += ch;
      if (ch === '\\') out += text[++i] ?? '';
      else if (ch === quote) quote = undefined;
      continue;
    }
    const lineComment = hash ? ch === '#' : ch === '/' && text[i + 1] === '/';
    if (lineComment) {
      while (i < text.length && text[i] !== '\n') i++;
      out += ' \n'.slice(0, i < text.length ? 2 : 1);
      continue;
    }
    if (!hash && ch === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const body = text.slice(i, end < 0 ? text.length : end + 2);
      out += body.replace(/[^\n]/g, ' ');
      i += body.length - 1;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    out += ch;
  }
  return out;
}

/** The text between the parenthesis that opens at `open` and its match, or undefined when it never closes. */
function parenthesised(text: string, open: number): string | undefined {
  let depth = 0;
  let quote: string | undefined;
  for (let i = open; i < text.length; i++) {
    const ch = text[i]!;
    if (quote) {
      if (ch === '\\') i++;
      else if (ch === quote) quote = undefined;
      continue;
    }
    if (ch === '"' || ch === "'" || ch === '`') quote = ch;
    else if (ch === '(') depth++;
    else if (ch === ')' && --depth === 0) return text.slice(open + 1, i);
  }
  return undefined;
}

/** The parameters of `name`'s signature (`function f(a, b?: T)`, `def f(self, a=1)`, `func (r R) F(a, b int)`). */
export function parseParams(raw: string, name: string, hint?: string): Params | undefined {
  const signature = withoutComments(raw, hint);
  let at = -1;
  for (let i = signature.indexOf(name); i >= 0; i = signature.indexOf(name, i + 1)) {
    let j = i + name.length;
    if (signature[j] === '<') {
      let depth = 0;
      for (; j < signature.length; j++) {
        if (signature[j] === '<') depth++;
        else if (signature[j] === '>' && --depth === 0) break;
      }
      j++;
    }
    while (signature[j] === ' ') j++;
    if (signature[j] === '(' && !/[A-Za-z0-9_$]/.test(signature[i - 1] ?? '')) {
      at = j;
      break;
    }
  }
  if (at < 0) return undefined;
  const inner = parenthesised(signature, at);
  if (inner === undefined) return undefined;
  let required = 0;
  let total = 0;
  let variadic = false;
  for (const raw of topLevelParts(inner)) {
    const p = raw.replace(/^(readonly|public|private|protected|final|const|mut)\s+/, '').trim();
    // The receiver of a Python or Rust method (`self`, `&mut self`) and TypeScript's `this` parameter are not passed.
    if (total === 0 && required === 0 && /^(&\s*)?(mut\s+)?(self|cls)\b/.test(p) && !p.includes(':=')) continue;
    if (/^this\s*:/.test(p)) continue;
    if (p === '*' || p === '/') continue;
    // `...rest` (TS/JS), `*args` / `**kw` (Python), `xs ...T` (Go), `T... xs` (Java), `vararg` (Kotlin).
    if (p.startsWith('...') || /^\*\*?\w/.test(p) || /\.\.\./.test(p) || /^vararg\s/.test(p)) {
      variadic = true;
      continue;
    }
    total++;
    const name = p.split(/[:=]/)[0]!;
    if (!name.includes('?') && !/=/.test(p.replace(/=>/g, ''))) required++;
  }
  return { required, total, variadic };
}

/** What precedes a declaration's name on its line: keywords, modifiers, a Go receiver, a return type — no call or assignment. */
const DECLARATION_LEAD = /^\s*(?:@[\w.]+\s+)*(?:(?:def|function|func|fn|fun|sub|async|export|default|declare|pub(?:\([\w ]+\))?|public|private|protected|internal|static|override|abstract|final|synchronized|readonly|virtual|inline|const|unsafe|extern)\s+|func\s*\([^)]*\)\s*|[\w<>\[\]?,.*&:]+\s+)*$/;

/**
 * The parameters `text` (a whole file) declares for `name`, merged over every declaration of it —
 * overloads (`@overload`, TypeScript overload signatures) accept a call that fits any one of them:
 * the fewest required, the most total, variadic when any is. Undefined when nothing declares it.
 */
export function declaredParams(text: string, name: string, hint?: string): Params | undefined {
  let merged: Params | undefined;
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    if (/[A-Za-z0-9_$]/.test(text[i - 1] ?? '') || /[A-Za-z0-9_$]/.test(text[i + name.length] ?? '')) continue;
    const lineStart = text.lastIndexOf('\n', i - 1) + 1;
    if (!DECLARATION_LEAD.test(text.slice(lineStart, i))) continue;
    const p = parseParams(text.slice(i, i + 4000), name, hint);
    if (!p) continue;
    merged = merged ? { required: Math.min(merged.required, p.required), total: Math.max(merged.total, p.total), variadic: merged.variadic || p.variadic } : p;
  }
  return merged;
}

/** A signature that declares exactly `p` for `name` (what `verify_change` is asked to check). */
export function signatureOf(name: string, p: Params): string {
  const params = Array.from({ length: p.total }, (_, i) => (i < p.required ? `a${i}` : `a${i} = 0`));
  if (p.variadic) params.push('...rest');
  return `${name}(${params.join(', ')})`;
}

/** How many arguments the call of `name` on `line` (1-based) of `lines` passes; `spread` when one is spread. */
export function callArguments(lines: readonly string[], line: number, name: string, hint?: string): { count: number; spread: boolean } | undefined {
  const text = withoutComments(lines.slice(line - 1, line + 19).join('\n'), hint);
  for (let i = text.indexOf(name); i >= 0; i = text.indexOf(name, i + 1)) {
    if (/[A-Za-z0-9_$]/.test(text[i - 1] ?? '') || /[A-Za-z0-9_$]/.test(text[i + name.length] ?? '')) continue;
    let j = i + name.length;
    if (text[j] === '<') {
      const close = text.indexOf('>', j);
      if (close > 0 && close - j < 200) j = close + 1;
    }
    while (text[j] === ' ') j++;
    if (text[j] !== '(') continue;
    const inner = parenthesised(text, j);
    if (inner === undefined) return undefined;
    const args = topLevelParts(inner);
    return { count: args.length, spread: args.some((a) => a.startsWith('...') || /^\*\*?\w/.test(a)) };
  }
  return undefined;
}

/** Whether `n` arguments (possibly with a spread) fit `p`. */
function fits(n: { count: number; spread: boolean }, p: Params): boolean | 'unknown' {
  if (n.spread) return n.count - 1 <= p.total || p.variadic ? 'unknown' : false;
  return n.count >= p.required && (n.count <= p.total || p.variadic);
}

/** How a parameter list reads in an answer. */
export function describe(p: Params): string {
  return `${p.required} required of ${p.total}${p.variadic ? ' + variadic' : ''}`;
}

/** The answer of `verify_change`: `new_signature` checked against every call site and override of `id`. */
export async function verifyChange(ctx: ToolContext, args: { id: string; new_signature: string }): Promise<Record<string, unknown>> {
  const s = (ctx.engine.query('get_symbol', { id: args.id }, { repo: ctx.repo }) as GetSymbolResult).node;
  if (s.kind !== 'function' && s.kind !== 'method') throw new ToolInputError('invalid_argument', `${s.id} is a ${s.kind}; verify_change checks the signatures of functions and methods`);
  const after = parseParams(args.new_signature, s.name, s.file_path);
  if (!after) throw new ToolInputError('invalid_argument', `new_signature must name ${s.name} followed by its parameter list, e.g. ${s.signature ?? `${s.name}(a, b)`}`);
  const before = s.signature ? parseParams(s.signature, s.name, s.file_path) : undefined;
  const usages = ctx.engine.query('find_usages', { id: s.id, context: 'call', limit: 1000, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
  const cache = new Map<string, string[]>();
  const linesOf = (rel: string): string[] => {
    let lines = cache.get(rel);
    if (!lines) {
      try {
        lines = readSource(ctx, rel, () => fs.readFileSync(path.join(ctx.root, rel))).toString('utf8').split('\n');
      } catch {
        lines = [];
      }
      cache.set(rel, lines);
    }
    return lines;
  };
  const callers = usages.usages.map((u) => {
    const n = callArguments(linesOf(u.path), u.line, s.name, u.path);
    const ok = n === undefined ? 'unknown' : fits(n, after);
    return {
      path: u.path,
      line: u.line,
      from: u.from,
      origin: u.origin,
      ...(n ? { arguments: n.count, ...(n.spread ? { spread: true } : {}) } : { arguments: null }),
      compatible: ok,
      ...(ok === false && n ? { reason: `passes ${n.count} argument${n.count === 1 ? '' : 's'}; the new signature takes ${describe(after)}` } : {}),
    };
  });
  const related: { id: string; relation: 'overrides' | 'overridden_by'; signature: string | null; params: string | null; must_change: boolean | 'unknown' }[] = [];
  if (s.kind === 'method') {
    const h = ctx.engine.query('find_overrides', { id: s.id, direction: 'both', limit: 100 }, { repo: ctx.repo }) as FindOverridesResult;
    // Which side each row is on matters here; other tools take the family whole (overrideFamily).
    for (const [rows, relation] of [
      [h.parents, 'overrides'],
      [h.children, 'overridden_by'],
    ] as const) {
      for (const r of rows) {
        const p = r.method.signature ? parseParams(r.method.signature, r.method.name, r.method.file_path) : undefined;
        related.push({
          id: r.method.id,
          relation,
          signature: r.method.signature ?? null,
          params: p ? describe(p) : null,
          must_change: p ? p.required !== after.required || p.total !== after.total || p.variadic !== after.variadic : 'unknown',
        });
      }
    }
  }
  const breaking = callers.filter((c) => c.compatible === false).length + related.filter((r) => r.must_change === true).length;
  const unknown = callers.filter((c) => c.compatible === 'unknown').length + related.filter((r) => r.must_change === 'unknown').length;
  return {
    id: s.id,
    old_signature: s.signature ?? null,
    new_signature: args.new_signature,
    params: { before: before ? describe(before) : null, after: describe(after) },
    verdict: breaking > 0 ? 'breaking' : unknown > 0 ? 'check_manually' : 'compatible',
    breaking,
    unknown,
    callers,
    ...(usages.truncated ? { callers_truncated: true } : {}),
    ...(related.length > 0 ? { hierarchy: related } : {}),
    caveat: 'Counts arguments against parameters (required, optional, variadic); it does not check their types. Calls the graph could not resolve are not listed (search_text finds them).',
  };
}

/** Why a place is in an edit plan, in the order the steps are taken. */
const PLAN_ROLES = ['definition', 'hierarchy', 'caller', 'test'] as const;
type PlanRole = (typeof PLAN_ROLES)[number];

/** One place an edit plan visits. */
interface PlanSite {
  id: string;
  path: string;
  line: number;
  role: PlanRole;
  /** The changed declaration it follows from. */
  because: string;
}

async function editPlan(ctx: ToolContext, args: { ids: string[]; include_tests?: boolean | undefined; limit?: number | undefined }): Promise<Record<string, unknown>> {
  const sites: PlanSite[] = [];
  const seen = new Set<string>();
  const add = (site: PlanSite): void => {
    const key = `${site.role}:${site.id}:${site.path}:${site.line}`;
    if (seen.has(key)) return;
    seen.add(key);
    sites.push(site);
  };
  const targets = args.ids.map((id) => (ctx.engine.query('get_symbol', { id }, { repo: ctx.repo }) as GetSymbolResult).node);
  for (const s of targets) {
    if (!s.file_path) throw new ToolInputError('invalid_argument', `${s.id} is not declared in this repository`);
    add({ id: s.id, path: s.file_path, line: s.start_line, role: 'definition', because: s.id });
    if (s.kind === 'method') {
      for (const r of overrideFamily(ctx, s.id)) add({ id: r.method.id, path: r.method.file_path, line: r.method.start_line, role: 'hierarchy', because: s.id });
    }
    const usages = ctx.engine.query('find_usages', { id: s.id, limit: 1000, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
    const users = new Map(usages.nodes.map((n) => [n.id, n]));
    for (const u of usages.usages) {
      const test = users.get(u.from)?.is_test === true;
      if (test && args.include_tests === false) continue;
      add({ id: u.from, path: u.path, line: u.line, role: test ? 'test' : 'caller', because: s.id });
    }
  }
  // Files in import order (a file before the files that import it), roles in plan order inside it.
  const fileOrder = importOrder(ctx, sites.map((s) => s.path));
  const roleRank = (s: PlanSite): number => PLAN_ROLES.indexOf(s.role);
  const byFile = new Map<string, PlanSite[]>();
  for (const s of sites) byFile.set(s.path, [...(byFile.get(s.path) ?? []), s]);
  // Definitions and their families first, then the callers' files in import order, tests last.
  const fileRank = (path: string): [number, number] => [Math.min(...byFile.get(path)!.map(roleRank)), fileOrder.indexOf(path)];
  const files = [...byFile.keys()].sort((a, b) => {
    const [x, y] = [fileRank(a), fileRank(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
  const limit = args.limit ?? 100;
  const steps = files.slice(0, limit).map((path, i) => {
    const here = byFile.get(path)!.sort((a, b) => roleRank(a) - roleRank(b) || a.line - b.line);
    return {
      step: i + 1,
      path,
      role: PLAN_ROLES[Math.min(...here.map(roleRank))],
      sites: here.map(({ id, line, role, because }) => ({ id, line, role, because })),
    };
  });
  return {
    targets: targets.map((t) => t.id),
    files: files.length,
    sites: sites.length,
    steps,
    ...(files.length > limit ? { truncated: true } : {}),
    note: 'Edit in this order: each declaration with its override family, then the files that use it, each file before those that import it, tests last. Calls the graph could not resolve are not listed (search_text finds them).',
  };
}

/** The verify family. */
export const verifyTools = [
  defineTool({
    name: 'get_edit_plan',
    category: 'edit',
    effect: 'read',
    description:
      'A dependency-ordered plan for changing declarations across files: the declarations and their override families first, then every file that uses them (each before the files that import it), tests last — each step with its lines and why it is there.',
    input: {
      ids: z.array(z.string().min(1)).min(1).max(50).describe('The declarations to change (ids, Owner.name or names)'),
      include_tests: z.boolean().optional().describe('List the tests that use them (default true)'),
      limit: z.number().int().min(1).max(1000).optional().describe('Most files in the plan (default 100)'),
    },
    handler: (ctx, args) => editPlan(ctx, args),
  }),
  defineTool({
    name: 'verify_change',
    category: 'edit',
    effect: 'read',
    description:
      "Check a proposed signature change before making it: every call site's argument count against the new parameters (required, optional, variadic) and every method that overrides or is overridden by it. " +
      'Verdict compatible / breaking / check_manually, with each breaking call site.',
    input: {
      id: target,
      new_signature: z.string().min(1).describe('The proposed declaration head, e.g. "function load(path: string, opts?: Options): Config"'),
    },
    handler: (ctx, args) => verifyChange(ctx, args),
  }),
];
