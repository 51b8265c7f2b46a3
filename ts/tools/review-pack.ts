/**
 * The review rollups. `review_pack` is the one-call AST-grounded review of a changeset: the
 * rulepack's findings (`review`), every changed declaration classified (feature / fix / refactor /
 * test / config / docs, each with why), per-file risk, the contracts the change touches (signature
 * changes checked against every call site, deleted declarations still called, HTTP routes whose
 * handlers changed), the project's guard rules, the tests to run with one verification command,
 * an optional tiered context pack under a token budget, and a privacy-safe receipt.
 * `pr_review_context` is its cheap, LLM-free counterpart: diff_context's risks, verify_change on
 * each changed signature, the session overlay's pending edits simulated as simulate_chain does,
 * and the agent-config audit, folded into PASS / WARN / BLOCK.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { outlineOf, type OutlineSymbol } from '../engine/engine';
import { audit } from './agent-audit';
import { git } from '../support/git';
import type { ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';
import { syncIndex } from '../workspace/writes';
import { blobAt, checkGuards, detectChanges, diffContext, touchedPaths, type ChangedSymbol as Changed } from './changes';
import { ContextReader } from './context-common';
import { commandsFor, findTestTargets, type TestFileRow, type TestSymbolRow } from './context-tests';
import { redactSecrets } from '../support/redact';
import { receiptOf } from './pr';
import { defineTool, ToolInputError } from './registry';
import { runReview } from './review';
import { REVIEW_ORDER, worse } from './review-llm';
import { simulateOverlay } from './speculate';
import { declaredParams, describe, signatureOf, verifyChange, type Params } from './verify';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Changed declarations examined for classification, contracts and tests (answers stay bounded). */
const MAX_SYMBOLS = 200;
/** Signature changes checked against their call sites. */
const MAX_SIGNATURE_CHECKS = 50;
/** Declarations whose covering tests are looked up. */
const MAX_TEST_LOOKUPS = 50;
/** Default token budget of the context pack. */
const PACK_TOKENS = 6000;

/** A changed file as `detect_changes` lists it. */
interface ChangedFile {
  path: string;
  old_path?: string;
  status: 'added' | 'modified' | 'deleted' | 'renamed';
  binary?: boolean;
  symbols?: Changed[];
}

/** One changeset read from git, with the base's and the working tree's text of its files on demand. */
class Changeset {
  private readonly oldText = new Map<string, Promise<string | undefined>>();
  private readonly newText = new Map<string, Promise<string | undefined>>();
  private readonly oldOutline = new Map<string, Map<string, OutlineSymbol>>();

  constructor(
    private readonly ctx: ToolContext,
    readonly changes: Json,
    readonly staged: boolean,
  ) {}

  get files(): ChangedFile[] {
    return this.changes.files as ChangedFile[];
  }

  /** Every changed declaration with its file (bounded by `MAX_SYMBOLS`). */
  symbols(): { file: ChangedFile; symbol: Changed }[] {
    return this.files.flatMap((file) => (file.symbols ?? []).map((symbol) => ({ file, symbol }))).slice(0, MAX_SYMBOLS);
  }

  /** The paths the changeset touches (the new and, for renames, the old). */
  paths(): string[] {
    return this.files.map((f) => f.path);
  }

  /** The file's text at the base, or undefined when it had none there. */
  async before(file: ChangedFile): Promise<string | undefined> {
    const key = file.old_path ?? file.path;
    if (file.status === 'added') return undefined;
    let text = this.oldText.get(key);
    if (!text) {
      const commit = this.changes.base_commit as string | undefined;
      // The promise is cached, not its value: two lookups of one file share a single read.
      text = commit ? blobAt(this.ctx.root, commit, key).then((b) => b?.toString('utf8')) : Promise.resolve(undefined);
      this.oldText.set(key, text);
    }
    return text;
  }

  /** The file's text now (the index for a staged review, else the working tree through the overlay), read once per file. */
  after(file: ChangedFile): Promise<string | undefined> {
    if (file.status === 'deleted') return Promise.resolve(undefined);
    let text = this.newText.get(file.path);
    if (!text) {
      text = this.staged
        ? blobAt(this.ctx.root, '', file.path).then((b) => b?.toString('utf8'))
        : Promise.resolve().then(() => {
            try {
              return readSource(this.ctx, file.path, () => fs.readFileSync(path.join(this.ctx.root, file.path))).toString('utf8');
            } catch {
              return undefined;
            }
          });
      this.newText.set(file.path, text);
    }
    return text;
  }

  /** The parameters `name` is declared with in the file at the base and now (merged over overloads), when both can be read. */
  async params(file: ChangedFile, name: string): Promise<{ before: Params; after: Params } | undefined> {
    const [old, now] = [await this.before(file), await this.after(file)];
    const before = old === undefined ? undefined : declaredParams(old, name, file.old_path ?? file.path);
    const after = now === undefined ? undefined : declaredParams(now, name, file.path);
    return before && after ? { before, after } : undefined;
  }

  /** The base version of the declaration `local` (what follows `::` in its id), with its lines. */
  async oldDeclaration(file: ChangedFile, local: string): Promise<{ symbol: OutlineSymbol; text: string } | undefined> {
    const text = await this.before(file);
    if (text === undefined) return undefined;
    const key = file.old_path ?? file.path;
    let outline = this.oldOutline.get(key);
    if (!outline) {
      outline = new Map((outlineOf(key, Buffer.from(text, 'utf8')) ?? []).map((s) => [s.local, s]));
      this.oldOutline.set(key, outline);
    }
    const symbol = outline.get(local);
    return symbol ? { symbol, text: linesOf(text, symbol.start_line, symbol.end_line) } : undefined;
  }
}

function linesOf(text: string, from: number, to: number): string {
  return text.split('\n').slice(from - 1, to).join('\n');
}

/** What follows `::` in a node id. */
function localOf(id: string): string {
  const at = id.indexOf('::');
  return at < 0 ? id : id.slice(at + 2);
}

/** Reads the changeset of `base` / `staged` / `scope`, and lets the graph see the working tree. */
async function readChangeset(ctx: ToolContext, args: Json): Promise<Changeset> {
  const changes = await detectChanges(ctx, { base: args.base, staged: args.staged, paths: args.scope ? [args.scope] : args.paths });
  const set = new Changeset(ctx, changes, args.staged === true);
  if (!set.staged) await syncIndex(ctx, touchedPaths(set.files));
  return set;
}

// ---- classification --------------------------------------------------------------------------

/** Tokens of code with comments and whitespace gone (good enough to compare two versions of one declaration). */
function tokens(code: string): string[] {
  const stripped = code
    .replace(/\/\*[\s\S]*?\*\//g, ' ')
    .replace(/(^|[^:"'`])\/\/[^\n]*/g, '$1 ')
    .replace(/(^|\s)#[^\n]*/g, '$1 ');
  return stripped.match(/[A-Za-z_$][\w$]*|\d[\w.]*|"(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`|\?\.|\?\?|[=!]==?|[<>]=?|&&|\|\||:=|->|=>|\S/g) ?? [];
}

/** Tokens whose appearance in a modified body marks a guard or error path being added. */
const GUARD_TOKENS: ReadonlySet<string> = new Set(['if', 'unless', 'guard', '?.', '??', 'try', 'catch', 'except', 'finally', 'raise', 'throw', 'assert', 'isinstance', 'instanceof']);
/** Visibility and other modifiers: a change of these alone changes no behaviour inside the declaration. */
const MODIFIERS: ReadonlySet<string> = new Set(['export', 'default', 'pub', 'public', 'private', 'protected', 'internal', 'static', 'readonly', 'final', 'async', 'override', 'virtual', 'inline', 'const']);
/** Keywords that keep their identity when two versions are compared for renames only. */
const KEYWORDS: ReadonlySet<string> = new Set([...GUARD_TOKENS, 'for', 'while', 'return', 'else', 'elif', 'switch', 'case', 'break', 'continue', 'await', 'async', 'yield', 'new', 'def', 'func', 'function', 'class', 'const', 'let', 'var']);

/** A few tokens as they read in an explanation. */
const clip = (ts: readonly string[]): string => ts.slice(0, 2).join(' ').slice(0, 40);

/** Multiset difference `a - b`. */
function minus(a: readonly string[], b: readonly string[]): string[] {
  const count = new Map<string, number>();
  for (const t of b) count.set(t, (count.get(t) ?? 0) + 1);
  const out: string[] = [];
  for (const t of a) {
    const n = count.get(t) ?? 0;
    if (n > 0) count.set(t, n - 1);
    else out.push(t);
  }
  return out;
}

/** File kinds classified without declarations. */
const CONFIG_FILE = /(^|\/)(Dockerfile[^/]*|Makefile|\.gortex\.ya?ml|\.github\/.*|[^/]*\.(ya?ml|json|jsonc|toml|ini|cfg|conf|env|properties|xml|lock|gradle|mod|sum))$/i;
const DOCS_FILE = /\.(md|mdx|rst|txt|adoc)$/i;

/** A change's kind and why. */
interface Classification {
  class: 'feature' | 'fix' | 'refactor' | 'test' | 'config' | 'docs';
  because: string;
}

/** Classifies one changed declaration from its two versions. */
function classifyDeclaration(symbol: Changed, path: string, isTest: boolean, before: string | undefined, after: string | undefined, params: { before: Params; after: Params } | undefined): Classification {
  if (isTest) return { class: 'test', because: 'declared in test code' };
  if (symbol.kind === 'doc' || DOCS_FILE.test(path)) return { class: 'docs', because: 'documentation' };
  if (CONFIG_FILE.test(path)) return { class: 'config', because: 'a configuration or build file' };
  if (symbol.change === 'added') return { class: 'feature', because: 'a new declaration' };
  if (symbol.change === 'deleted') return { class: 'refactor', because: 'a declaration removed' };
  if (before === undefined || after === undefined) return { class: 'refactor', because: 'modified; its earlier version could not be read' };
  const [old, now] = [tokens(before), tokens(after)];
  if (old.join(' ') === now.join(' ')) return { class: 'refactor', because: 'only whitespace or comments changed' };
  const shape = (ts: string[]): string => ts.map((t) => (/^[A-Za-z_$]/.test(t) && !KEYWORDS.has(t) ? 'id' : t)).join(' ');
  if (shape(old) === shape(now)) return { class: 'refactor', because: 'the same code with names changed' };
  if (params && describe(params.before) !== describe(params.after)) {
    return { class: 'feature', because: `its parameters changed (${describe(params.before)} → ${describe(params.after)})` };
  }
  const added = minus(now, old);
  const removed = minus(old, now);
  const guards = [...new Set(added.filter((t) => GUARD_TOKENS.has(t)))];
  if (guards.length > 0 && added.length <= Math.max(40, old.length * 0.5)) return { class: 'fix', because: `adds a guard or error path (${guards.slice(0, 4).join(', ')})` };
  if ([...added, ...removed].every((t) => MODIFIERS.has(t))) return { class: 'refactor', because: `only modifiers changed (${[...new Set([...added, ...removed])].join(', ')})` };
  if (added.length > 0 && removed.length > 0 && added.length + removed.length <= 4) {
    return { class: 'fix', because: `replaces ${removed.length} token${removed.length === 1 ? '' : 's'} in place (${clip(removed)} → ${clip(added)})` };
  }
  if (added.length > removed.length * 1.5 + 10) return { class: 'feature', because: `adds behaviour (+${added.length} / -${removed.length} tokens)` };
  return { class: 'refactor', because: `reshapes existing code (+${added.length} / -${removed.length} tokens)` };
}

/** Every changed declaration classified, and each file without declarations. */
async function classifyChangeset(ctx: ToolContext, set: Changeset): Promise<{ symbols: Json[]; files: Json[]; counts: Record<string, number> }> {
  const reader = new ContextReader(ctx);
  const symbols: Json[] = [];
  const files: Json[] = [];
  const counts: Record<string, number> = {};
  const count = (c: string): void => {
    counts[c] = (counts[c] ?? 0) + 1;
  };
  for (const { file, symbol } of set.symbols()) {
    const isTest = reader.isTestFile(file.path) || reader.isTestFile(file.old_path ?? file.path);
    const old = symbol.change === 'added' ? undefined : await set.oldDeclaration(file, localOf(symbol.id));
    const text = await set.after(file);
    const now = symbol.change === 'deleted' || text === undefined ? undefined : linesOf(text, symbol.start_line, symbol.end_line);
    const params = symbol.change === 'modified' && (symbol.kind === 'function' || symbol.kind === 'method') ? await set.params(file, symbol.name) : undefined;
    const c = classifyDeclaration(symbol, file.path, isTest, old?.text, now, params);
    count(c.class);
    symbols.push({ id: symbol.id, kind: symbol.kind, change: symbol.change, path: file.path, line: symbol.start_line, ...c });
  }
  for (const file of set.files) {
    if ((file.symbols ?? []).length > 0) continue;
    const c: Classification = reader.isTestFile(file.path)
      ? { class: 'test', because: 'a test file' }
      : CONFIG_FILE.test(file.path)
        ? { class: 'config', because: 'a configuration or build file' }
        : DOCS_FILE.test(file.path)
          ? { class: 'docs', because: 'documentation' }
          : { class: file.status === 'added' ? 'feature' : 'refactor', because: `module-level code ${file.status === 'added' ? 'added' : 'changed'} outside any declaration` };
    count(c.class);
    files.push({ path: file.path, status: file.status, ...c });
  }
  return { symbols, files, counts };
}

// ---- contracts -------------------------------------------------------------------------------

/**
 * Calls of the function `name` (declared in `declaredIn`) found by text: unqualified, or
 * qualified by its package or module name (`pkg.name(`, `module.name(`) — not `x.name(` on some
 * value, which names a method.
 */
function callsByName(ctx: ToolContext, name: string, declaredIn: string): { path: string; line: number }[] {
  const escaped = name.replace(/[$]/g, '\\$');
  const hits = ctx.engine.query('search_text', { query: `(^|[^\\w$.])((\\w+)\\.)?${escaped}\\s*\\(`, regexp: true, limit: 50 }, { repo: ctx.repo }) as Json;
  const modules = new Set([path.posix.basename(path.posix.dirname(declaredIn)), path.posix.basename(declaredIn).replace(/\.[^.]+$/, '')]);
  const qualified = new RegExp(`(^|[^\\w$.])(?:(\\w+)\\.)?${escaped}\\s*\\(`);
  return (hits.hits as Json[])
    .filter((h) => {
      if (/^\s*(def|func|function|fn)\b/.test(h.text)) return false;
      const m = qualified.exec(h.text);
      return m !== null && (m[2] === undefined || modules.has(m[2]));
    })
    .map((h) => ({ path: h.path, line: h.line }))
    .slice(0, 20);
}

/** Changed signatures checked against their call sites and overrides, and deleted declarations something still calls. */
async function contractChecks(ctx: ToolContext, set: Changeset): Promise<{ signatures: Json[]; dangling: Json[]; routes: Json[]; breaks: number }> {
  const signatures: Json[] = [];
  const dangling: Json[] = [];
  const addedNames = new Set(set.symbols().filter((s) => s.symbol.change !== 'deleted').map((s) => s.symbol.name));
  for (const { file, symbol } of set.symbols()) {
    if (symbol.kind !== 'function' && symbol.kind !== 'method') continue;
    if (symbol.change === 'modified' && signatures.length < MAX_SIGNATURE_CHECKS) {
      const declared = await set.params(file, symbol.name);
      if (!declared || !ctx.engine.getNode(ctx.repo, symbol.id)) continue;
      const { before, after } = declared;
      if (describe(before) === describe(after)) continue;
      const checked = (await verifyChange(ctx, { id: symbol.id, new_signature: signatureOf(symbol.name, after) })) as Json;
      signatures.push({
        id: symbol.id,
        path: file.path,
        line: symbol.start_line,
        params: { before: describe(before), after: describe(after) },
        verdict: checked.verdict,
        breaking_calls: (checked.callers as Json[]).filter((c) => c.compatible === false).map(({ path: p, line, from, reason }) => ({ path: p, line, from, reason })),
        overrides_to_change: ((checked.related ?? []) as Json[]).filter((r) => r.must_change === true).map((r) => r.id),
      });
    }
    // A removed free function still called by name. (A removed method is not looked for by text:
    // `x.name(` may call any type's method of that name, and the graph no longer has the edge.)
    if (symbol.change === 'deleted' && symbol.kind === 'function' && !addedNames.has(symbol.name)) {
      // Moved elsewhere (declared under the same name in the graph): nothing dangles.
      const found = ctx.engine.query('search_symbols', { query: symbol.name, limit: 20 }, { repo: ctx.repo }) as Json;
      const stillDeclared = ((found.results ?? []) as Json[]).some((r) => r.name === symbol.name && ['function', 'method'].includes(r.kind));
      if (stillDeclared) continue;
      const calls = callsByName(ctx, symbol.name, file.old_path ?? file.path);
      if (calls.length > 0) dangling.push({ id: symbol.id, name: symbol.name, path: file.old_path ?? file.path, still_called_at: calls });
    }
  }
  // Routes whose handler (or registering code) is a changed declaration.
  const changedIds = new Set(set.symbols().map((s) => s.symbol.id));
  const routes: Json[] = [];
  for (const file of set.files.filter((f) => f.status !== 'deleted')) {
    const r = ctx.engine.query('analyze', { kind: 'routes', path_prefix: file.path, limit: 1000 }, { repo: ctx.repo }) as Json;
    for (const row of r.routes as Json[]) {
      const by = [row.handler?.id, row.registered_in?.id].find((id) => id && changedIds.has(id));
      if (by) routes.push({ method: row.method, route: row.route, framework: row.framework, path: row.path, line: row.line, changed: by });
    }
  }
  const breaks = signatures.filter((s) => s.verdict === 'breaking').length + dangling.length;
  return { signatures, dangling, routes, breaks };
}

// ---- tests -----------------------------------------------------------------------------------

/** The tests covering the changed declarations (and changed test code), and the commands that run them. */
function testTargets(ctx: ToolContext, set: Changeset): Json {
  const reader = new ContextReader(ctx);
  const tests = new Map<string, TestSymbolRow>();
  const files = new Map<string, TestFileRow>();
  const seeds = set.symbols().filter((s) => s.symbol.change !== 'deleted').slice(0, MAX_TEST_LOOKUPS);
  for (const { symbol } of seeds) {
    if (!reader.node(symbol.id)) continue;
    const found = findTestTargets(reader, { symbol: reader.symbol(symbol.id).node });
    for (const t of found.tests) if (!tests.has(t.id)) tests.set(t.id, t);
    for (const f of found.test_files) if (!files.has(f.path)) files.set(f.path, f);
  }
  // Changed test files with no changed declaration (fixtures, module-level tests) run whole.
  for (const f of set.files) {
    if (f.status === 'deleted' || files.has(f.path) || !reader.isTestFile(f.path)) continue;
    const found = findTestTargets(reader, { path: f.path });
    for (const t of found.test_files) if (!files.has(t.path)) files.set(t.path, t);
  }
  const { commands, none } = commandsFor(reader, [...tests.values()], [...files.values()]);
  const untested = seeds.filter(({ symbol }) => ![...tests.values()].some((t) => t.covers === symbol.id) && !reader.isTestFile(symbol.id.slice(symbol.id.indexOf('/') + 1, symbol.id.indexOf('::')))).map((s) => s.symbol.id);
  return {
    test_files: [...files.keys()].sort(),
    tests: tests.size,
    commands,
    verification_command: commands.length === 0 ? null : commands.map((c) => (c.cwd === '.' ? c.command : `(cd ${c.cwd} && ${c.command})`)).join(' && '),
    ...(none.length > 0 ? { no_command: none } : {}),
    untested: untested.slice(0, 50),
    ...measuredCoverage(ctx, seeds.map((s) => s.symbol.id)),
    ...(seeds.length < set.symbols().filter((s) => s.symbol.change !== 'deleted').length ? { note: `tests looked up for the first ${MAX_TEST_LOOKUPS} changed declarations` } : {}),
  };
}

/** The changed declarations' measured coverage when the repository has a coverage report (`analyze kind=coverage`, file by file). */
function measuredCoverage(ctx: ToolContext, ids: readonly string[]): { measured?: Json } {
  const wanted = new Set(ids);
  const files = [...new Set(ids.map((id) => id.slice(id.indexOf('/') + 1, id.indexOf('::'))))];
  const rows: Json[] = [];
  let reports: string[] = [];
  for (const file of files) {
    let r: Json;
    try {
      r = ctx.engine.query('analyze', { kind: 'coverage', path_prefix: file, limit: 1000 }, { repo: ctx.repo });
    } catch (error) {
      // No report here: graph evidence (tests, untested) is all there is.
      if ((error as { code?: string }).code === 'unavailable') return {};
      throw error;
    }
    reports = (r.reports as Json[]).map((x) => x.path);
    for (const s of r.symbols as Json[]) if (wanted.has(s.id)) rows.push({ id: s.id, percent: s.percent, covered: s.covered, lines: s.lines, ...(s.stale ? { stale: true } : {}) });
  }
  return files.length === 0 ? {} : { measured: { reports, symbols: rows } };
}

// ---- the context pack ------------------------------------------------------------------------

/** One item of the pack. */
interface PackItem {
  tier: 1 | 2 | 3;
  kind: 'hunk' | 'caller' | 'signature';
  path: string;
  id?: string;
  text: string;
}

const estimateTokens = (text: string): number => Math.ceil(text.length / 4);

/** The changeset's unified diff with three lines of context, split into hunks per file. */
async function diffHunks(ctx: ToolContext, set: Changeset): Promise<PackItem[]> {
  const commit = set.changes.base_commit as string | undefined;
  if (!commit) return [];
  const r = await git(ctx.root, ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--unified=3', '--relative', '-M', ...(set.staged ? ['--cached'] : []), commit, '--', ...set.paths()]);
  if (!r.ok) return [];
  const items: PackItem[] = [];
  let file = '';
  for (const chunk of r.stdout.split(/\n(?=diff --git |@@ )/)) {
    const head = /^diff --git a\/.* b\/(.*)$/m.exec(chunk);
    if (head) {
      file = head[1]!;
      continue;
    }
    if (chunk.startsWith('@@')) items.push({ tier: 1, kind: 'hunk', path: file, text: chunk.endsWith('\n') ? chunk : `${chunk}\n` });
  }
  return items;
}

/** Tier 2 (direct callers' full source) and tier 3 (the wider neighbourhood's signatures). */
function neighbourhoodItems(ctx: ToolContext, set: Changeset): PackItem[] {
  const reader = new ContextReader(ctx);
  const changed = new Set(set.symbols().map((s) => s.symbol.id));
  const callers: PackItem[] = [];
  const signatures: PackItem[] = [];
  const seen = new Set<string>(changed);
  for (const id of changed) {
    if (!ctx.engine.getNode(ctx.repo, id)) continue;
    for (const e of ctx.engine.edges(ctx.repo, id, { direction: 'in', kinds: ['calls'] })) {
      if (seen.has(e.from)) continue;
      seen.add(e.from);
      const n = ctx.engine.getNode(ctx.repo, e.from) as Json;
      if (!n?.path || n.kind === 'file') continue;
      const lines = reader.lines(n.path);
      if (lines) callers.push({ tier: 2, kind: 'caller', path: n.path, id: n.id, text: lines.slice(n.start_line - 1, n.end_line).join('\n') });
      // Its own callers are the wider neighbourhood.
      for (const up of ctx.engine.edges(ctx.repo, e.from, { direction: 'in', kinds: ['calls'] })) {
        if (seen.has(up.from)) continue;
        seen.add(up.from);
        const u = ctx.engine.getNode(ctx.repo, up.from) as Json;
        if (u?.signature) signatures.push({ tier: 3, kind: 'signature', path: u.path, id: u.id, text: u.signature });
      }
    }
    for (const e of ctx.engine.edges(ctx.repo, id, { direction: 'out', kinds: ['calls'] })) {
      if (seen.has(e.to)) continue;
      seen.add(e.to);
      const n = ctx.engine.getNode(ctx.repo, e.to) as Json;
      if (n?.signature) signatures.push({ tier: 3, kind: 'signature', path: n.path, id: n.id, text: n.signature });
    }
  }
  return [...callers, ...signatures];
}

/** The tiered pack filled under `budget` tokens in tier order; what did not fit is counted, lower tiers first to go. */
async function contextPack(ctx: ToolContext, set: Changeset, budget: number, scrub: boolean): Promise<Json> {
  const candidates = [...(await diffHunks(ctx, set)), ...neighbourhoodItems(ctx, set)];
  const items: PackItem[] = [];
  const dropped = { 1: 0, 2: 0, 3: 0 };
  let used = 0;
  let redacted = 0;
  for (const item of candidates) {
    const clean = scrub ? redactSecrets(item.text) : { text: item.text, redacted: 0 };
    const cost = estimateTokens(clean.text);
    if (used + cost > budget) {
      dropped[item.tier]++;
      continue;
    }
    used += cost;
    redacted += clean.redacted;
    items.push({ ...item, text: clean.text });
  }
  return {
    budget_tokens: budget,
    tokens: used,
    tiers: ([1, 2, 3] as const).map((tier) => ({ tier, what: ['', 'changed code as diff hunks', 'direct callers, full source', 'wider neighbourhood, signatures'][tier], items: items.filter((i) => i.tier === tier).length, dropped: dropped[tier] })),
    items,
    ...(scrub ? { redacted } : {}),
  };
}

// ---- verdicts --------------------------------------------------------------------------------

type ReviewVerdict = (typeof REVIEW_ORDER)[number];

/** Per-file risk: diff_context's level, critical where the file breaks a contract. */
function fileRisks(context: Json, contracts: { signatures: Json[]; dangling: Json[] }): Json[] {
  const breaking = new Set([...contracts.signatures.filter((s) => s.verdict === 'breaking').map((s) => s.path), ...contracts.dangling.map((d) => d.path)]);
  return (context.files as Json[]).map((f) => {
    const reasons = [...(f.risk?.reasons ?? [])];
    let level: string = f.risk?.level ?? 'low';
    if (breaking.has(f.path) || breaking.has(f.old_path)) {
      level = 'critical';
      reasons.unshift('breaks a contract: a changed signature or removed declaration something still calls');
    }
    return { path: f.path, status: f.status, level, reasons };
  });
}

/** `review_pack`: the whole review of a changeset in one envelope. */
async function reviewPack(ctx: ToolContext, args: Json): Promise<Json> {
  const review = (await runReview(ctx, { ...args, scope: args.diff === undefined ? args.scope : undefined, ...(args.scope !== undefined && args.base === undefined && !args.staged && args.diff === undefined ? { base: 'HEAD' } : {}) })) as Json;
  const set = await readChangeset(ctx, args.diff !== undefined ? { scope: args.scope } : args);
  const [classes, contracts, context, guards] = [
    await classifyChangeset(ctx, set),
    await contractChecks(ctx, set),
    await diffContext(ctx, { base: args.base, staged: args.staged }, set.changes),
    await checkGuards(ctx, { base: args.base, staged: args.staged }, set.changes),
  ];
  const files = fileRisks(context, contracts);
  const tests = testTargets(ctx, set);
  const guardErrors = ((guards as Json).violations as Json[]).filter((v) => v.severity === 'error');
  let verdict: ReviewVerdict = review.verdict ?? 'APPROVE';
  const because: string[] = [];
  if (verdict !== 'APPROVE') because.push(`review: ${review.verdict} (${(review.findings as Json[]).length} finding${(review.findings as Json[]).length === 1 ? '' : 's'})`);
  for (const f of files) {
    const v: ReviewVerdict = f.level === 'critical' ? 'BLOCK' : f.level === 'high' || f.level === 'medium' ? 'REVIEW' : 'APPROVE';
    if (v !== 'APPROVE') because.push(`${f.path}: ${f.level} risk`);
    verdict = worse(REVIEW_ORDER, verdict, v);
  }
  if (contracts.breaks > 0) {
    verdict = 'BLOCK';
    because.push(`${contracts.breaks} contract break${contracts.breaks === 1 ? '' : 's'}`);
  }
  if (guardErrors.length > 0) {
    verdict = 'BLOCK';
    because.push(`${guardErrors.length} guard violation${guardErrors.length === 1 ? '' : 's'}`);
  }
  const scrub = args.scrub === true;
  let redacted = 0;
  const findings = (review.findings as Json[]).map((f) => {
    if (!scrub || typeof f.source !== 'string') return f;
    const r = redactSecrets(f.source);
    redacted += r.redacted;
    return { ...f, source: r.text };
  });
  const pack = args.include_pack ? await contextPack(ctx, set, args.max_tokens ?? PACK_TOKENS, scrub) : undefined;
  return {
    verdict,
    because,
    review: { verdict: review.verdict, reviewed: review.reviewed, findings, counts: review.counts, ...(review.pre_existing ? { pre_existing: review.pre_existing.length } : {}) },
    changes: { base: set.changes.base, summary: set.changes.summary, classes: classes.counts },
    symbols: classes.symbols,
    ...(classes.files.length > 0 ? { files_without_declarations: classes.files } : {}),
    file_risk: files,
    contracts,
    guards: { rules: (guards as Json).rules, passed: (guards as Json).passed, violations: (guards as Json).violations },
    tests,
    verification_command: tests.verification_command,
    ...(pack ? { pack } : {}),
    ...(review.llm ? { llm: review.llm } : {}),
    ...(scrub ? { scrubbed: { secrets_redacted: redacted + (pack?.redacted ?? 0) } } : {}),
    receipt: await receiptOf(ctx, { paths: set.paths(), symbols: classes.symbols.length, verdict, findings: findings.length }),
  };
}

// ---- pr_review_context -----------------------------------------------------------------------

const PR_ORDER = ['PASS', 'WARN', 'BLOCK'] as const;
type PrVerdict = (typeof PR_ORDER)[number];

/** Audit findings that name what this change touched: a deleted or renamed path, a removed declaration, or an edited instruction file. */
function relatedAudit(report: Json, set: Changeset): { related: Json[]; elsewhere: number } {
  const gone = new Set<string>();
  for (const f of set.files) {
    if (f.status === 'deleted') gone.add(f.path);
    if (f.old_path && f.old_path !== f.path) gone.add(f.old_path);
    for (const s of f.symbols ?? []) if (s.change === 'deleted') gone.add(s.name);
  }
  const edited = new Set(set.paths());
  const related: Json[] = [];
  let elsewhere = 0;
  for (const file of report.files as Json[]) {
    for (const [kind, rows] of [
      ['dead_path', file.dead_paths],
      ['unknown_symbol', file.unknown_symbols],
    ] as const) {
      for (const row of rows as Json[]) {
        const names = [...gone].some((g) => row.ref.includes(g));
        if (names || edited.has(file.path)) related.push({ file: file.path, line: row.line, ref: row.ref, kind, why: names ? 'names something this change removed' : 'this change edits the instruction file' });
        else elsewhere++;
      }
    }
  }
  return { related, elsewhere };
}

/** `pr_review_context`: diff_context, verify_change, the overlay simulation and the audit folded into PASS / WARN / BLOCK. */
async function prReviewContext(ctx: ToolContext, args: Json): Promise<Json> {
  const set = await readChangeset(ctx, args);
  const reasons: { level: PrVerdict; from: string; message: string }[] = [];
  const context = await diffContext(ctx, { base: args.base, staged: args.staged }, set.changes);
  const contracts = await contractChecks(ctx, set);
  for (const f of context.files as Json[]) {
    if (f.risk?.level === 'high' || f.risk?.level === 'medium') reasons.push({ level: 'WARN', from: 'diff_context', message: `${f.path}: ${f.risk.level} risk — ${(f.risk.reasons as string[]).join('; ')}` });
  }
  for (const s of contracts.signatures) {
    if (s.verdict === 'breaking') reasons.push({ level: 'BLOCK', from: 'verify_change', message: `${s.id}: ${s.params.before} → ${s.params.after} breaks ${s.breaking_calls.length} call site${s.breaking_calls.length === 1 ? '' : 's'}${s.overrides_to_change.length > 0 ? ` and ${s.overrides_to_change.length} override${s.overrides_to_change.length === 1 ? '' : 's'}` : ''}` });
    else if (s.verdict === 'check_manually') reasons.push({ level: 'WARN', from: 'verify_change', message: `${s.id}: ${s.params.before} → ${s.params.after}; some call sites could not be checked` });
  }
  for (const d of contracts.dangling) reasons.push({ level: 'BLOCK', from: 'verify_change', message: `${d.name} was removed and is still called at ${d.still_called_at.map((c: Json) => `${c.path}:${c.line}`).slice(0, 3).join(', ')}` });
  let simulation: Json;
  const simulated = await simulateOverlay(ctx, args.diagnostics === true);
  if (!simulated) {
    simulation = { ran: false, reason: 'no overlay edits in this session: push pending edits with overlay_push (or keep a simulate_chain) to have them simulated' };
  } else {
    const lsp = (simulated.diagnostics as Json).lsp;
    const newErrors = ((simulated.diagnostics as Json).new_syntax_errors ?? 0) + (lsp?.new_errors ?? 0);
    simulation = { ran: true, ...simulated };
    if (simulated.broken_callers.length > 0) reasons.push({ level: 'BLOCK', from: 'simulate_chain', message: `the overlay's edits leave ${simulated.broken_callers.length} caller${simulated.broken_callers.length === 1 ? '' : 's'} calling what they remove` });
    if (simulated.broken_implementors.length > 0) reasons.push({ level: 'BLOCK', from: 'simulate_chain', message: `${simulated.broken_implementors.length} implementor${simulated.broken_implementors.length === 1 ? '' : 's'} of a changed interface not updated` });
    if (newErrors > 0) reasons.push({ level: 'BLOCK', from: 'simulate_chain', message: `the overlay's edits add ${newErrors} error${newErrors === 1 ? '' : 's'}` });
    if (simulated.callers_to_check.length > 0) reasons.push({ level: 'WARN', from: 'simulate_chain', message: `${simulated.callers_to_check.length} caller${simulated.callers_to_check.length === 1 ? '' : 's'} of changed parameters to check` });
  }
  const report = audit(ctx) as Json;
  const { related, elsewhere } = relatedAudit(report, set);
  for (const r of related) reasons.push({ level: 'WARN', from: 'audit_agent_config', message: `${r.file}:${r.line}: ${r.ref} — ${r.why}` });
  const verdict = reasons.reduce<PrVerdict>((v, r) => worse(PR_ORDER, v, r.level), 'PASS');
  return {
    verdict,
    reasons,
    changes: { base: set.changes.base, summary: set.changes.summary },
    diff_context: (context.files as Json[]).map((f) => ({ path: f.path, status: f.status, risk: f.risk?.level ?? 'low', symbols: (f.symbols ?? []).length })),
    verify_change: { checked: contracts.signatures.length, signatures: contracts.signatures, removed_but_called: contracts.dangling },
    simulate_chain: simulation,
    audit_agent_config: { files: report.summary.files, related, stale_elsewhere: elsewhere },
  };
}

/** The changeset arguments both rollups take. */
const changesetArgs = {
  base: z.string().optional().describe('The working tree (or, with staged, the index) against this commit, branch or tag (default HEAD)'),
  staged: z.boolean().optional().describe('The staged changes instead of the working tree'),
  scope: z.string().optional().describe('Only changes under this path prefix'),
};

/** The review rollups. */
export const reviewPackTools = [
  defineTool({
    name: 'review_pack',
    category: 'review',
    effect: 'read',
    description:
      'The whole review of a changeset in one call: review\'s graph-grounded findings; every changed declaration classified (feature/fix/refactor/test/config/docs, with why); per-file risk; contracts (changed signatures checked against every call site and override, removed declarations still called, HTTP routes whose handler changed); guard rules; the tests to run and one verification_command; a privacy-safe receipt. Verdict BLOCK/REVIEW/APPROVE: the worst of the review and the file risks, BLOCK on a contract break or guard violation. include_pack adds changed hunks, callers\' source and neighbours\' signatures under max_tokens.',
    input: {
      ...changesetArgs,
      diff: z.string().max(5_000_000).optional().describe('A unified diff already applied to the working tree: its lines are reviewed; declarations, contracts and tests come from the working tree against HEAD'),
      rules: z.array(z.string()).optional().describe('Rule ids or categories to run (default all default-on rules)'),
      min_severity: z.enum(['info', 'warning', 'error', 'critical']).optional().describe('Lowest finding severity reported'),
      include_pack: z.boolean().optional().describe('Add the tiered context pack (changed hunks, callers\' source, neighbours\' signatures) under max_tokens'),
      max_tokens: z.number().int().min(200).max(200_000).optional().describe(`Token budget of the pack (default ${PACK_TOKENS})`),
      scrub: z.boolean().optional().describe('Redact secrets from every code text in the answer (findings\' source lines, the pack)'),
      use_llm: z.boolean().optional().describe('Also ask the configured language model for defects in the changed lines (relocated to exact lines, grounded: false, capped at warning)'),
      limit: z.number().int().min(1).max(5000).optional().describe('Most findings returned (default 200)'),
    },
    handler: (ctx, args) => reviewPack(ctx, args),
  }),
  defineTool({
    name: 'pr_review_context',
    category: 'review',
    effect: 'read',
    description:
      'Deterministic PR-review rollup, no model: diff_context\'s per-file risks, verify_change on every changed signature (and removed declarations still called), the session overlay\'s pending edits simulated as simulate_chain does (broken callers and implementors, new errors), and the agent-config audit\'s findings about what the change touched → PASS / WARN / BLOCK with each reason. The cheap counterpart to review_pack.',
    input: {
      ...changesetArgs,
      diagnostics: z.boolean().optional().describe("Ask the language servers for the overlay edits' new errors too (default false: tree-sitter syntax only)"),
    },
    handler: (ctx, args) => prReviewContext(ctx, args),
  }),
  defineTool({
    name: 'audit_agent_config',
    category: 'review',
    effect: 'read',
    description:
      'Scan the agent instruction files (CLAUDE.md, AGENTS.md, .cursorrules, .windsurfrules, .github/copilot-instructions.md, .cursor/rules, .windsurf/rules, .antigravity/rules) for code spans naming paths that do not exist or symbols the graph does not hold, and for files large enough to crowd every session. The gortex://audit resource as a tool.',
    input: {},
    handler: (ctx) => {
      if (!ctx.root) throw new ToolInputError('not_available', 'no repository is open');
      return audit(ctx);
    },
  }),
];
