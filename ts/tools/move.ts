/**
 * `move_symbol`: moves a top-level declaration to another file, module or package and rewrites
 * what depends on where it lives — the importers' imports (TS/JS named imports and re-exports,
 * Python `from` imports and module-qualified uses, Go package-qualified uses, Java imports and
 * qualified names, Rust `use` paths and qualified paths), the imports the moved code needs in its
 * new file, and the old file's imports it no longer needs. What it cannot move safely it refuses
 * before writing anything: an import cycle it would create, a helper the new place cannot see,
 * a user reaching it in a way it cannot rewrite (namespace imports, `require`, star re-exports into
 * an existing file). Every file goes through the write rules of `ts/workspace/writes.ts`.
 */
import * as path from 'node:path';
import { z } from 'zod';
import { refactorFacts, type FindUsagesResult, type NodeSummary, type SearchTextResult } from '../engine/engine';
import { target } from './common';
import { defineTool, repoNameOf, ToolInputError } from './registry';
import { retargetAnchors } from './memory';
import type { ToolContext } from '../workspace/context';
import { commitWrites, resolveWritable, type PlannedWrite, type WriteTarget } from '../workspace/writes';
import { deletionRange, freshDeclaration, identifierColumns, localOf, moduleAliases } from './refactor';
import {
  addImports,
  applySplices,
  ecmaSpecifier,
  familyOf,
  goImportPath,
  goPackageName,
  importsOf,
  lineBytes,
  pruneImports,
  pythonModule,
  resolveEcma,
  resolvePythonFrom,
  rustModule,
  javaPackage,
  topLevel,
  type NewImport,
  type Splice,
} from './imports';
import { repoPrefixOf } from './context-common';
import { unifiedDiff } from './edit';

/** The move tool. */
export const moveTools = [
  defineTool({
    name: 'move_symbol',
    category: 'edit',
    effect: 'local_write',
    description:
      'Move a top-level declaration to another file, module or package (created if missing; Java: a folder or Name.java, Go: a folder or file). ' +
      'Rewrites its importers (TS/JS imports and re-exports, Python from-imports and module-qualified uses, Go package-qualified uses, Java imports and qualified names, Rust use paths), ' +
      'gives the moved code the imports it needs and prunes the ones the old file no longer uses. Refused before writing when it would create an import cycle, ' +
      'when the moved code uses something the new place cannot see, or when a user reaches it in a way that cannot be rewritten. dry_run shows the diffs.',
    input: {
      id: target,
      to: z.string().min(1).describe('Target file (or, for Go and Java, a folder), relative to the repository root'),
      dry_run: z.boolean().optional(),
      allow_parse_errors: z.boolean().optional(),
    },
    handler: async (ctx, args) => move(ctx, args),
  }),
];

/** Files a move edits, each with its bytes as the move has them so far. */
class Workset {
  private readonly files = new Map<string, { target: WriteTarget; bytes: Buffer | null }>();
  constructor(private readonly ctx: ToolContext) {}
  target(rel: string, create = false): WriteTarget {
    const existing = this.files.get(rel);
    if (existing) return existing.target;
    const t = resolveWritable(this.ctx.root, rel, { create });
    this.files.set(t.rel, { target: t, bytes: t.current });
    return t;
  }
  bytes(rel: string): Buffer {
    this.target(rel);
    return this.files.get(rel)!.bytes ?? Buffer.alloc(0);
  }
  set(rel: string, bytes: Buffer | null): void {
    this.target(rel, true);
    this.files.get(rel)!.bytes = bytes;
  }
  splice(rel: string, splices: readonly Splice[]): void {
    if (splices.length > 0) this.set(rel, applySplices(this.bytes(rel), splices));
  }
  addImports(rel: string, wanted: readonly NewImport[]): void {
    if (wanted.length > 0) this.set(rel, addImports(rel, this.bytes(rel), wanted));
  }
  /** Prunes the imports each edited file stopped using. */
  prune(gone: readonly { module: string; name: string }[]): Record<string, string[]> {
    const removed: Record<string, string[]> = {};
    for (const [rel, f] of this.files) {
      if (f.bytes === null || f.target.current === null || f.bytes.equals(f.target.current)) continue;
      const r = pruneImports(rel, f.target.current, f.bytes, gone);
      if (r.removed.length > 0) removed[rel] = r.removed;
      f.bytes = r.bytes;
    }
    return removed;
  }
  plans(): PlannedWrite[] {
    return [...this.files.values()]
      .filter((f) => (f.bytes === null ? f.target.current !== null : f.target.current === null || !f.bytes.equals(f.target.current)))
      .sort((a, b) => a.target.rel.localeCompare(b.target.rel))
      .map((f) => ({ target: f.target, after: f.bytes }));
  }
}

/** Everything a family's plan needs. */
interface MoveContext {
  ctx: ToolContext;
  work: Workset;
  s: NodeSummary;
  from: string;
  to: string;
  /** The declaration's text (whole lines: doc comment, decorators, body). */
  text: string;
  /** The names the declaration references. */
  names: Set<string>;
  /** Top-level declarations of the old file it references. */
  siblings: NodeSummary[];
  /** The old file's import statements bindings it uses. */
  needed: { fact: ReturnType<typeof importsOf>[number]; binding: ReturnType<typeof importsOf>[number]['bindings'][number] }[];
  /** Files that reference it (besides the old file). */
  users: Map<string, number[]>;
  /** Users found by text only (no graph reference): rewritten when they plainly name the old place, else skipped. */
  loose: Set<string>;
  /** Whether the old file still references it once it is gone. */
  homeUses: boolean;
  notes: string[];
}

function refuse(reason: string): never {
  throw new ToolInputError('not_movable', `${reason}; nothing was written`);
}

/** Go file-name suffixes that are build constraints (GOOS, GOARCH, tests). */
const GO_FILE_SUFFIX = /(_(aix|android|darwin|dragonfly|freebsd|hurd|illumos|ios|js|linux|nacl|netbsd|openbsd|plan9|solaris|wasip1|windows|zos))?(_(386|amd64|arm|arm64|loong64|mips|mipsle|mips64|mips64le|ppc64|ppc64le|riscv64|s390x|wasm))?(_test)?\.go$/;

/** Refuses for a graph user; a text-only mention that is not plainly the moved symbol is skipped. */
function unhandled(m: MoveContext, file: string, reason: string): void {
  if (!m.loose.has(file)) refuse(reason);
}

function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
}

/** `text` with the line holding the declaration's keyword prefixed (`export `, `pub(crate) `, `public `). */
function prefixDeclaration(text: string, lineIndex: number, prefix: string, keyword: RegExp): string {
  const lines = text.split('\n');
  const line = lines[lineIndex] ?? '';
  const m = keyword.exec(line);
  if (!m) refuse(`cannot make the declaration visible (no ${keyword.source} on its line)`);
  lines[lineIndex] = line.slice(0, m.index) + prefix + line.slice(m.index);
  return lines.join('\n');
}

/** Appends a declaration to a file's bytes, a blank line between. */
function appended(bytes: Buffer, text: string): Buffer {
  const body = bytes.toString('utf8');
  const sep = body.length === 0 ? '' : body.endsWith('\n\n') ? '' : body.endsWith('\n') ? '\n' : '\n\n';
  return Buffer.from(body + sep + (text.endsWith('\n') ? text : `${text}\n`), 'utf8');
}

async function move(ctx: ToolContext, args: { id: string; to: string; dry_run?: boolean | undefined; allow_parse_errors?: boolean | undefined }): Promise<Record<string, unknown>> {
  const s = await freshDeclaration(ctx, args.id, 'move_symbol moves declarations (move files with git mv, then re-index)');
  const family = familyOf(s.file_path);
  if (!family) refuse(`${s.file_path}: move_symbol handles TypeScript/JavaScript, Python, Go, Java and Rust`);
  const local = localOf(s.id);
  let to = path.posix.normalize(args.to.replace(/\\/g, '/')).replace(/^\.\//, '').replace(/\/$/, '');
  if (family === 'java' && !to.endsWith('.java')) to = `${to}/${s.name}.java`;
  if (family === 'go' && !to.endsWith('.go')) to = `${to}/${s.name.toLowerCase()}.go`;
  // A Go method may move between the files of its package; anything else nested moves with its owner.
  const goMethod = family === 'go' && s.kind === 'method' && dirOf(to) === dirOf(s.file_path);
  if (local.includes('.') && !goMethod) refuse(`${s.id} is declared inside ${local.slice(0, local.lastIndexOf('.'))}: move that instead`);
  if (familyOf(to) !== family) refuse(`${to} is not a ${family === 'ecma' ? 'TypeScript/JavaScript' : family} file`);
  const work = new Workset(ctx);
  const from = work.target(s.file_path).rel;
  const toTarget = work.target(to, true);
  to = toTarget.rel;
  if (to === from) refuse(`${s.id} is already in ${to}`);

  const original = work.bytes(from);
  const lines = original.toString('utf8').split('\n');
  if (/^\s/.test(lines[s.start_line - 1] ?? '')) refuse(`${s.id} is declared inside a block (an if, a try, a namespace): move the block by hand`);
  const [first, last] = deletionRange(lines, s.start_line, s.end_line);
  const [bs, be] = lineBytes(original, first, last);
  // The declaration's lines without the blank line the cut takes with it.
  const text = `${original.subarray(bs, be).toString('utf8').replace(/(\r?\n[ \t]*)+$/, '')}\n`;
  const names = new Set(refactorFacts(from, original, 'names', { start: bs, end: be }));
  const declared = ctx.engine.fileSymbols(ctx.repo, from).filter((n) => n.id !== s.id && !localOf(n.id).includes('.') && n.kind !== 'file' && n.kind !== 'package' && n.kind !== 'module');
  const sibs: NodeSummary[] = declared
    .filter((n) => names.has(n.name) && (n.start_line < first || n.start_line > last))
    .filter((n, i, all) => all.findIndex((x) => x.name === n.name) === i) // a name declared twice (an interface and a const) is imported once
    .map((n) => ({ id: n.id, kind: n.kind as NodeSummary['kind'], ...(n.flavor ? { flavor: n.flavor as NodeSummary['flavor'] } : {}), name: n.name, file_path: n.path, start_line: n.start_line, end_line: n.end_line, qual_name: n.qualified, repo_prefix: repoPrefixOf(n.id), exported: n.exported }));
  const needed = importsOf(from, original).filter((f) => topLevel(original, f)).flatMap((fact) => fact.bindings.filter((b) => b.local !== '*' && names.has(b.local)).map((binding) => ({ fact, binding })));

  const usages = ctx.engine.query('find_usages', { id: s.id, limit: 1000, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
  if (usages.truncated) refuse(`${s.id} has ${usages.total} references; move_symbol rewrites at most 1000`);
  const users = new Map<string, number[]>();
  for (const u of usages.usages) {
    if (u.path === from && u.line >= first && u.line <= last) continue;
    if (u.path === from) continue;
    users.set(u.path, [...new Set([...(users.get(u.path) ?? []), u.line])].sort((a, b) => a - b));
  }
  for (const file of users.keys()) if (familyOf(file) !== family) refuse(`${file} uses ${s.name} from another language; move it by hand`);
  // Mentions the graph did not resolve (inside macros, through aliases): looked at too, rewritten
  // when they plainly name the old place, else left alone.
  const loose = new Set<string>();
  const mentions = ctx.engine.query('search_text', { query: `\\b${s.name.replace(/\$/g, '\\$')}\\b`, regexp: true, limit: 1000 }, { repo: ctx.repo }) as SearchTextResult;
  for (const h of mentions.hits) {
    if (h.path === from || familyOf(h.path) !== family || (users.has(h.path) && !loose.has(h.path))) continue;
    loose.add(h.path);
    users.set(h.path, [...(users.get(h.path) ?? []), h.line]);
  }

  // Cut it from the old file; does the rest of that file still use it?
  work.splice(from, [{ start: bs, end: be, text: '' }]);
  const rest = work.bytes(from);
  const homeUses = refactorFacts(from, rest, 'names', { start: 0, end: rest.length }).includes(s.name);
  const m: MoveContext = { ctx, work, s, from, to, text, names, siblings: sibs, needed, users, loose, homeUses, notes: [] };
  const plan = { ecma: moveEcma, python: movePython, go: moveGo, java: moveJava, rust: moveRust }[family];
  plan(m);
  const pruned = work.prune([]);
  const plans = work.plans();
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  const store = ctx.session?.store;
  if (store && !args.dry_run) {
    store.recordEdit('symbol', s.id, from, 'move_symbol');
    for (const w of written) store.recordEdit('file', w.path, w.path, 'move_symbol');
  }
  const newId = `${s.id.slice(0, s.id.indexOf('::') - s.file_path.length)}${to}::${local}`;
  const anchorsMoved = args.dry_run ? 0 : retargetAnchors(repoNameOf(ctx), s.id, newId);
  return {
    status: args.dry_run ? 'would_apply' : 'applied',
    id: s.id,
    new_id: newId,
    ...(anchorsMoved > 0 ? { memory_anchors_moved: anchorsMoved } : {}),
    from,
    to,
    users_rewritten: [...users.keys()].filter((u) => plans.some((p) => p.target.rel === u)),
    ...(m.notes.length > 0 ? { notes: m.notes } : {}),
    ...(Object.keys(pruned).length > 0 ? { imports_removed: pruned } : {}),
    files: written.map((w) => ({ ...w, reindexed: args.dry_run !== true })),
    diffs: plans.map((p) => unifiedDiff(p.target.rel, (p.target.current ?? Buffer.alloc(0)).toString('utf8'), (p.after ?? Buffer.alloc(0)).toString('utf8'), false).diff),
  };
}

/** The declaration's line index inside the moved text. */
function declLine(m: MoveContext): number {
  const lines = m.work.target(m.from).current!.toString('utf8').split('\n');
  const [first] = deletionRange(lines, m.s.start_line, m.s.end_line);
  return m.s.start_line - first;
}

// ----- TypeScript / JavaScript ----------------------------------------------------------------

function moveEcma(m: MoveContext): string {
  const { ctx, work, s, from, to } = m;
  const root = ctx.root;
  const at = declLine(m);
  const declLineText = m.text.split('\n')[at] ?? '';
  if (/^\s*export\s+default\b/.test(declLineText)) refuse(`${s.id} is a default export: rename its importers' default imports by hand, or make it a named export first`);
  const like = importsOf(from, work.target(from).current!).find((i) => i.module.startsWith('.'))?.module;
  // Declaration merging (an interface and a const of one name): the halves cannot live in two files.
  const twins = ctx.engine.fileSymbols(ctx.repo, from).filter((n) => n.id !== s.id && n.name === s.name && !localOf(n.id).includes('.'));
  if (twins.length > 0) refuse(`${s.name} is declared ${twins.length + 1} times in ${from} (${[s.kind, ...twins.map((t) => t.kind)].join(' + ')}, merged by TypeScript): move them together by hand`);
  // Imports that only name types are erased: a cycle matters only between values, and between
  // functions (hoisted) it is harmless.
  const typeOnly = (n: { kind: string; flavor?: string | undefined }): boolean => n.kind === 'interface' || (n.kind === 'type' && n.flavor === 'type_alias');
  const fnOnly = (n: { kind: string }): boolean => n.kind === 'function';
  const valueSiblings = m.siblings.filter((x) => !typeOnly(x));
  if (m.homeUses && !typeOnly(s) && valueSiblings.length > 0 && !(fnOnly(s) && valueSiblings.every(fnOnly))) {
    refuse(`${from} would import ${s.name} from ${to} while ${to} imports ${valueSiblings.map((x) => x.name).join(', ')} from ${from}: an import cycle in which a ${[s, ...valueSiblings].find((x) => !fnOnly(x))!.kind} could be read before it is initialised. Move those too`);
  }
  // Helpers it uses stay and are exported for it.
  const homeSplices: Splice[] = [];
  const restBytes = work.bytes(from);
  // Their lines in the file without the declaration.
  const restLines = restBytes.toString('utf8').split('\n');
  for (const sib of m.siblings.filter((x) => !x.exported)) {
    const idx = restLines.findIndex((l) => new RegExp(`^\\s*(async\\s+function\\*?|function\\*?|class|abstract\\s+class|const|let|var|interface|type|enum|declare\\s+\\w+)\\s+${sib.name}\\b`).test(l));
    if (idx < 0) refuse(`${s.name} uses ${sib.name}, which ${from} does not export and gortex cannot mark for export (its declaration line is not a plain declaration)`);
    const [ls] = lineBytes(restBytes, idx + 1, idx + 1);
    const indent = /^\s*/.exec(restLines[idx]!)![0].length;
    homeSplices.push({ start: ls + indent, end: ls + indent, text: 'export ' });
    m.notes.push(`exported ${sib.name} from ${from} so ${to} can import it`);
  }
  work.splice(from, homeSplices);

  // The new file: imports for what it uses, then the declaration (exported when anything else uses it).
  const wanted: NewImport[] = m.siblings.map((x) => ({ module: ecmaSpecifier(to, from, like), name: x.name }));
  for (const { fact, binding } of m.needed) {
    const resolved = fact.module.startsWith('.') ? resolveEcma(root, from, fact.module) : undefined;
    if (fact.module.startsWith('.') && !resolved) refuse(`${from} imports ${binding.local} from ${fact.module}, which gortex cannot resolve to a file`);
    if (resolved === to) continue;
    const module = resolved ? ecmaSpecifier(to, resolved, fact.module) : fact.module;
    const typeOnly = fact.type_only;
    if (binding.imported === '*') wanted.push({ module, name: '*', local: binding.local, typeOnly });
    else wanted.push({ module, name: binding.imported, local: binding.local, typeOnly });
  }
  let text = m.text;
  const exported = /^\s*export\b/.test(declLineText);
  if (!exported && (m.homeUses || m.users.size > 0)) {
    text = prefixDeclaration(text, at, 'export ', /\b(async\s+function|function|class|abstract\s+class|const|let|var|interface|type|enum|declare)\b/);
    m.notes.push(`${s.name} is now exported from ${to} (it is used outside it)`);
  }
  const toBytes = work.bytes(to);
  // The target itself may import it from the old file: that import goes.
  work.set(to, dropBinding(to, toBytes, (mod) => resolveEcma(root, to, mod) === from, s.name));
  work.addImports(to, wanted);
  work.set(to, appended(work.bytes(to), text));
  if (m.homeUses) work.addImports(from, [{ module: ecmaSpecifier(from, to, like), name: s.name }]);

  // A namespace import of the old file reaches it as `ns.name`, which cannot follow it to another file.
  for (const { path: file, alias } of moduleAliases(ctx, from)) {
    const pattern = new RegExp(`(^|[^A-Za-z0-9_$.])${alias.replace(/[$.]/g, (c) => `\\${c}`)}\\s*\\.\\s*${s.name.replace(/\$/g, '\\$')}(?![A-Za-z0-9_$])`);
    const line = work.bytes(file).toString('utf8').split('\n').findIndex((l) => pattern.test(l));
    if (line >= 0) refuse(`${file}:${line + 1} reaches ${s.name} as ${alias}.${s.name} through a namespace import of ${from}, which cannot follow it to ${to}: import it by name there first`);
  }
  // Importers.
  const star = ctx.engine.query('search_text', { query: 'export * from', limit: 500 }, { repo: ctx.repo }) as SearchTextResult;
  for (const hit of star.hits) {
    const spec = /export\s*\*\s*from\s*(['"])(.+?)\1/.exec(hit.text)?.[2];
    if (!spec || resolveEcma(root, hit.path, spec) !== from) continue;
    const already = star.hits.some((h) => h.path === hit.path && resolveEcma(root, h.path, /from\s*(['"])(.+?)\1/.exec(h.text)?.[2] ?? '') === to);
    if (already) continue;
    if (work.target(to).current !== null) refuse(`${hit.path} re-exports everything of ${from} (export *): ${s.name} would leave it, and re-exporting ${to} too could export more than ${s.name}. Move to a new file, or add the re-export by hand`);
    const b = work.bytes(hit.path);
    const [, le] = lineBytes(b, hit.line, hit.line);
    const quote = /from\s*(['"])/.exec(hit.text)?.[1] ?? "'";
    const semi = /;\s*$/.test(hit.text) ? ';' : '';
    work.splice(hit.path, [{ start: le, end: le, text: `export * from ${quote}${ecmaSpecifier(hit.path, to, spec)}${quote}${semi}\n` }]);
    m.notes.push(`${hit.path} re-exports ${to} as it re-exported ${from}`);
  }
  for (const [file] of m.users) {
    if (file === to) continue;
    const bytes = work.bytes(file);
    const facts = importsOf(file, bytes);
    const hits = facts.filter((i) => resolveEcma(root, file, i.module) === from && i.bindings.some((b) => b.imported.replace(/^type /, '') === s.name));
    const reexports = rewriteEcmaReexports(m, file);
    if (hits.length === 0) {
      if (reexports) continue;
      // It may reach it through a file the move already rewrites (a barrel).
      const viaRewritten = facts.some((i) => i.bindings.some((b) => b.local === s.name) && m.users.has(resolveEcma(root, file, i.module) ?? ''));
      if (viaRewritten) continue;
      unhandled(m, file, `${file} uses ${s.name} without a named import from ${from} (a namespace import, require() or a path alias): gortex cannot rewrite it`);
      continue;
    }
    for (const fact of hits) {
      const binding = fact.bindings.find((b) => b.imported.replace(/^type /, '') === s.name)!;
      work.set(file, dropBinding(file, work.bytes(file), (mod) => mod === fact.module, s.name));
      work.addImports(file, [{ module: ecmaSpecifier(file, to, fact.module), name: binding.imported, local: binding.local === s.name ? s.name : binding.local, typeOnly: fact.type_only }]);
    }
  }
  return text;
}

/** Rewrites one-line `export { … S … } from './from'` in `file`; whether it found one. */
function rewriteEcmaReexports(m: MoveContext, file: string): boolean {
  const bytes = m.work.bytes(file);
  const lines = bytes.toString('utf8').split('\n');
  let found = false;
  const splices: Splice[] = [];
  lines.forEach((line, i) => {
    const r = /^(\s*export\s*(type\s*)?)\{([^}]*)\}(\s*from\s*)(['"])(.+?)\5(\s*;?\s*)$/.exec(line);
    if (!r || resolveEcma(m.ctx.root, file, r[6]!) !== m.from) return;
    const items = r[3]!.split(',').map((x) => x.trim()).filter(Boolean);
    const mine = items.filter((x) => x.split(/\s+as\s+/)[0]!.replace(/^type\s+/, '') === m.s.name);
    if (mine.length === 0) return;
    found = true;
    const others = items.filter((x) => !mine.includes(x));
    const spec = ecmaSpecifier(file, m.to, r[6]);
    const moved = `${r[1]}{ ${mine.join(', ')} }${r[4]}${r[5]}${spec}${r[5]}${r[7]}`;
    const kept = others.length > 0 ? `${r[1]}{ ${others.join(', ')} }${r[4]}${r[5]}${r[6]}${r[5]}${r[7]}\n` : '';
    const [ls, le] = lineBytes(bytes, i + 1, i + 1);
    splices.push({ start: ls, end: le, text: `${kept}${moved.replace(/\s+$/, '')}${/;\s*$/.test(line) && !/;$/.test(moved.trim()) ? ';' : ''}\n` });
  });
  m.work.splice(file, splices);
  return found;
}

/** `bytes` without the import binding of `name` from a module `matches` accepts (its statement regenerated or dropped). */
function dropBinding(file: string, bytes: Buffer, matches: (module: string) => boolean, name: string): Buffer {
  if (bytes.length === 0) return bytes;
  const splices: Splice[] = [];
  for (const fact of importsOf(file, bytes)) {
    if (!matches(fact.module)) continue;
    const drop = fact.bindings.filter((b) => b.imported.replace(/^type /, '') === name || b.imported.split(/[.:]+/).pop() === name);
    if (drop.length === 0) continue;
    const keep = fact.bindings.filter((b) => !drop.includes(b));
    const fam = familyOf(file)!;
    let text = '';
    if (keep.length > 0) {
      if (fam === 'ecma') {
        const q = /from\s*"/.test(fact.text) ? '"' : "'";
        const def = keep.find((b) => b.imported === 'default');
        const named = keep.filter((b) => b.imported !== 'default').map((b) => (b.local !== b.imported.replace(/^type /, '') ? `${b.imported} as ${b.local}` : b.imported));
        text = `import ${fact.type_only ? 'type ' : ''}${[...(def ? [def.local] : []), ...(named.length > 0 ? [`{ ${named.join(', ')} }`] : [])].join(', ')} from ${q}${fact.module}${q}${/;\s*$/.test(fact.text) ? ';' : ''}`;
      } else if (fam === 'python') {
        text = `from ${fact.module} import ${keep.map((b) => (b.local !== b.imported ? `${b.imported} as ${b.local}` : b.imported)).join(', ')}`;
      } else continue;
      splices.push({ start: fact.start_byte, end: fact.end_byte, text });
    } else {
      const [ls, le] = lineBytes(bytes, fact.start_line, fact.end_line);
      splices.push({ start: ls, end: le, text: '' });
    }
  }
  return applySplices(bytes, splices);
}

// ----- Python ---------------------------------------------------------------------------------

function movePython(m: MoveContext): string {
  const { ctx, work, s, from, to } = m;
  const root = ctx.root;
  const modA = pythonModule(root, from);
  const modB = pythonModule(root, to);
  const home = work.target(from).current!.toString('utf8');
  if (new RegExp(`__all__[\\s\\S]{0,2000}['"]${s.name}['"]`).test(home)) refuse(`${from} lists ${s.name} in __all__: edit __all__ first`);
  if (m.homeUses && m.siblings.length > 0) {
    refuse(`${from} would import ${s.name} from ${modB} while ${modB} imports ${m.siblings.map((x) => x.name).join(', ')} from ${modA}: a circular import. Move those too`);
  }
  const wanted: NewImport[] = m.siblings.map((x) => ({ module: modA, name: x.name }));
  for (const { fact, binding } of m.needed) {
    if (fact.kind === 'module') wanted.push({ module: binding.imported, ...(binding.local !== binding.imported.split('.')[0] ? { local: binding.local } : {}) });
    else {
      const module = resolvePythonFrom(root, from, fact.module);
      if (module === modB) continue;
      wanted.push({ module, name: binding.imported, ...(binding.local !== binding.imported ? { local: binding.local } : {}) });
    }
  }
  work.set(to, dropBinding(to, work.bytes(to), (mod) => resolvePythonFrom(root, to, mod) === modA, s.name));
  work.addImports(to, wanted);
  const body = work.bytes(to).toString('utf8');
  const sep = body.length === 0 ? '' : body.endsWith('\n\n\n') ? '' : body.endsWith('\n\n') ? '\n' : body.endsWith('\n') ? '\n\n' : '\n\n\n';
  work.set(to, Buffer.from(body + sep + (m.text.endsWith('\n') ? m.text : `${m.text}\n`), 'utf8'));
  if (m.homeUses) work.addImports(from, [{ module: modB, name: s.name }]);

  for (const [file, lines] of m.users) {
    if (file === to) continue;
    let handled = false;
    // Module-qualified uses: `util.S`, `pkg.util.S`, `alias.S` where the prefix denotes the old module.
    const denotes = new Map<string, string>();
    for (const fact of importsOf(file, work.bytes(file))) {
      for (const b of fact.bindings) {
        if (fact.kind === 'module') denotes.set(b.local, b.local === b.imported.split('.')[0] && b.imported.includes('.') ? b.local : b.imported);
        else if (fact.kind === 'named') denotes.set(b.local, `${resolvePythonFrom(root, file, fact.module)}.${b.imported}`);
      }
    }
    const cur = work.bytes(file);
    const curLines = cur.toString('utf8').split('\n');
    const splices: Splice[] = [];
    for (const line of lines) {
      const t = curLines[line - 1] ?? '';
      const re = new RegExp(`\\b([A-Za-z_]\\w*(?:\\.[A-Za-z_]\\w*)*)\\.${s.name}\\b`, 'g');
      let mm: RegExpExecArray | null;
      const [ls] = lineBytes(cur, line, line);
      while ((mm = re.exec(t)) !== null) {
        const [head, ...tail] = mm[1]!.split('.');
        const base = denotes.get(head!);
        if (base === undefined || [base, ...tail].join('.') !== modA) continue;
        const start = ls + Buffer.byteLength(t.slice(0, mm.index));
        splices.push({ start, end: start + Buffer.byteLength(mm[0]), text: `${modB}.${s.name}` });
        handled = true;
      }
    }
    work.splice(file, splices);
    const needsModule = splices.length > 0;
    const bytes = work.bytes(file);
    const facts = importsOf(file, bytes);
    for (const fact of facts) {
      if (fact.kind === 'wildcard' && resolvePythonFrom(root, file, fact.module) === modA) refuse(`${file} star-imports ${modA}: gortex cannot tell which of its names it uses`);
      if (fact.kind !== 'named' || resolvePythonFrom(root, file, fact.module) !== modA) continue;
      const b = fact.bindings.find((x) => x.imported === s.name);
      if (!b) continue;
      work.set(file, dropBinding(file, work.bytes(file), (mod) => mod === fact.module, s.name));
      work.addImports(file, [{ module: modB, name: s.name, ...(b.local !== s.name ? { local: b.local } : {}) }]);
      handled = true;
    }
    if (needsModule) work.addImports(file, [{ module: modB }]);
    if (!handled) unhandled(m, file, `${file} uses ${s.name} in a way gortex cannot rewrite (not a from-import of ${modA}, nor ${modA}.${s.name})`);
  }
  return m.text;
}

// ----- Go -------------------------------------------------------------------------------------

function moveGo(m: MoveContext): string {
  const { ctx, work, s, from, to } = m;
  const root = ctx.root;
  const dirA = dirOf(from);
  const dirB = dirOf(to);
  const pkgB = goPackageName(root, dirB === dirA ? dirA : dirB);
  let text = m.text;
  const wanted: NewImport[] = m.needed.map(({ fact, binding }) => ({ module: fact.module, ...(fact.text.trim().startsWith('"') || fact.text.trim().startsWith('`') ? {} : { local: binding.local }) }));
  // Build constraints travel with the code: a //go:build line, a GOOS/GOARCH file suffix, _test.go.
  const constraintOf = (bytes: Buffer): string =>
    bytes
      .toString('utf8')
      .split('\n')
      .slice(0, Math.max(0, bytes.toString('utf8').split('\n').findIndex((l) => /^package\s/.test(l))))
      .filter((l) => /^\/\/(go:build|\s*\+build)\b/.test(l))
      .join('\n');
  const suffix = (file: string): string => GO_FILE_SUFFIX.exec(path.posix.basename(file))?.[0] ?? '';
  const constraint = constraintOf(work.target(from).current!);
  if (suffix(from) !== suffix(to)) refuse(`${from} builds only as ${suffix(from) || 'an ordinary file'} and ${to} as ${suffix(to) || 'an ordinary file'}: the file name is a build constraint in Go`);
  if (work.target(to).current !== null && constraintOf(work.target(to).current!) !== constraint) refuse(`${from} and ${to} have different build constraints (//go:build): the declaration would build under other conditions`);
  const addMoved = (): void => {
    if (work.target(to).current === null && work.bytes(to).length === 0) work.set(to, Buffer.from(`${constraint ? `${constraint}\n\n` : ''}package ${dirB === dirA ? goPackageName(root, dirA) : pkgB}\n`, 'utf8'));
    work.addImports(to, wanted);
    work.set(to, appended(work.bytes(to), text));
  };
  if (dirA === dirB) {
    addMoved();
    return text;
  }
  if (!/^[A-Z]/.test(s.name)) refuse(`${s.name} is unexported: code outside package ${dirA} could not use it. Rename it (rename_symbol) to an exported name first`);
  // Package scope spans the package's files: what it uses from any of them stays behind.
  const packageLevel = new Set(m.siblings.map((x) => x.name));
  for (const f of ctx.engine.fileNodes(ctx.repo, []).filter((f) => f.path !== from && dirOf(f.path) === dirA && f.path.endsWith('.go') && !f.path.endsWith('_test.go'))) {
    for (const n of ctx.engine.fileSymbols(ctx.repo, f.path)) if (!localOf(n.id).includes('.') && n.name !== s.name && m.names.has(n.name) && n.kind !== 'file' && n.kind !== 'package' && n.kind !== 'import') packageLevel.add(n.name);
  }
  if (packageLevel.size > 0) refuse(`${s.name} uses ${[...packageLevel].join(', ')} of package ${dirA}: move those with it, or move it within its package`);
  const pathA = goImportPath(root, dirA);
  const pathB = goImportPath(root, dirB);
  if (!pathA || !pathB) refuse(`no go.mod above ${dirA} or ${dirB}: the import paths are unknown`);
  // Its methods must move with a type (Go keeps methods in the type's package).
  const methods: NodeSummary[] = [];
  for (const n of ctx.engine.fileSymbols(ctx.repo, from)) if (n.id.startsWith(`${s.id}.`)) methods.push({ id: n.id, name: n.name, kind: n.kind as NodeSummary['kind'], file_path: n.path, start_line: n.start_line, end_line: n.end_line, qual_name: n.qualified, repo_prefix: repoPrefixOf(n.id) });
  for (const f of ctx.engine.fileNodes(ctx.repo, []).filter((f) => f.path !== from && dirOf(f.path) === dirA && f.path.endsWith('.go'))) {
    if (ctx.engine.fileSymbols(ctx.repo, f.path).some((n) => localOf(n.id).startsWith(`${s.name}.`))) refuse(`${s.name} has methods in ${f.path}: move them into ${from} first (Go keeps methods in their type's package)`);
  }
  if (methods.length > 0) {
    const rest = work.bytes(from);
    const restLines = rest.toString('utf8').split('\n');
    const cut: Splice[] = [];
    for (const meth of methods) {
      const idx = restLines.findIndex((l) => new RegExp(`^func\\s*\\([^)]*\\b${s.name}\\b[^)]*\\)\\s*${meth.name}\\b`).test(l));
      if (idx < 0) refuse(`cannot find method ${meth.name} of ${s.name} in ${from}`);
      const end = idx + (meth.end_line - meth.start_line);
      const [a, b] = deletionRange(restLines, idx + 1, end + 1);
      const [ls, le] = lineBytes(rest, a, b);
      text += `\n${rest.subarray(ls, le).toString('utf8').replace(/(\r?\n[ \t]*)+$/, '')}\n`;
      cut.push({ start: ls, end: le, text: '' });
      const mstart = ls;
      const mend = le;
      for (const n of refactorFacts(from, rest, 'names', { start: mstart, end: mend })) m.names.add(n);
    }
    work.splice(from, cut);
    // What the methods use of the package, or of imports.
    const more = importsOf(from, work.target(from).current!).filter((f) => f.bindings.some((b) => m.names.has(b.local)));
    for (const f of more) if (!wanted.some((w) => w.module === f.module)) wanted.push({ module: f.module });
    const top = ctx.engine.fileSymbols(ctx.repo, from).filter((n) => !localOf(n.id).includes('.') && n.id !== s.id && m.names.has(n.name));
    if (top.length > 0) refuse(`${s.name}'s methods use ${top.map((x) => x.name).join(', ')} of package ${dirA}: move those too`);
  }
  const stillInA = [...m.users.keys()].filter((u) => dirOf(u) === dirA);
  const bImportsA = importsOf(to, work.bytes(to)).some((i) => i.module === pathA);
  if ((m.homeUses || stillInA.length > 0) && bImportsA) refuse(`package ${dirB} imports ${dirA}, which uses ${s.name}: moving it there makes an import cycle`);
  addMoved();
  const nameB = pkgB;
  const rewriteLines = (file: string, lines: number[], qualifiedBy: string | undefined, replacement: string): boolean => {
    const bytes = work.bytes(file);
    const all = bytes.toString('utf8').split('\n');
    const splices: Splice[] = [];
    for (const line of lines) {
      const t = all[line - 1] ?? '';
      const [ls] = lineBytes(bytes, line, line);
      for (const col of identifierColumns(t, s.name)) {
        const before = t.slice(0, col);
        if (qualifiedBy !== undefined) {
          if (!before.endsWith(`${qualifiedBy}.`) || /[A-Za-z0-9_$.]$/.test(before.slice(0, before.length - qualifiedBy.length - 1))) continue;
          const start = ls + Buffer.byteLength(before.slice(0, before.length - qualifiedBy.length - 1));
          splices.push({ start, end: ls + Buffer.byteLength(before) + s.name.length, text: replacement });
        } else {
          if (before.endsWith('.')) continue;
          splices.push({ start: ls + Buffer.byteLength(before), end: ls + Buffer.byteLength(before) + s.name.length, text: replacement });
        }
      }
    }
    work.splice(file, splices);
    return splices.length > 0;
  };
  if (m.homeUses) {
    const restLines = work.bytes(from).toString('utf8').split('\n');
    const uses = restLines.flatMap((l, i) => (identifierColumns(l, s.name).length > 0 ? [i + 1] : []));
    rewriteLines(from, uses, undefined, `${nameB}.${s.name}`);
    work.addImports(from, [{ module: pathB }]);
  }
  for (const [file, lines] of m.users) {
    if (file === to) continue;
    if (dirOf(file) === dirA) {
      rewriteLines(file, lines, undefined, `${nameB}.${s.name}`);
      work.addImports(file, [{ module: pathB }]);
      continue;
    }
    const imp = importsOf(file, work.bytes(file)).find((i) => i.module === pathA);
    if (!imp) {
      unhandled(m, file, `${file} uses ${s.name} without importing ${pathA} (a dot import?)`);
      continue;
    }
    const la = imp.bindings[0]!.local;
    if (la === '.' || la === '_') refuse(`${file} imports ${pathA} as ${la}: gortex cannot rewrite its uses`);
    const replacement = dirOf(file) === dirB ? s.name : `${nameB}.${s.name}`;
    if (!rewriteLines(file, lines, la, replacement)) {
      unhandled(m, file, `${file} uses ${s.name} in a way gortex cannot rewrite`);
      continue;
    }
    if (dirOf(file) !== dirB) work.addImports(file, [{ module: pathB }]);
  }
  return text;
}

// ----- Java -----------------------------------------------------------------------------------

function moveJava(m: MoveContext): string {
  const { ctx, work, s, from, to } = m;
  if (!['class', 'interface', 'enum', 'record', 'type', 'annotation'].includes(s.kind)) refuse(`${s.id} is a ${s.kind}: Java moves whole top-level types`);
  if (work.target(to).current !== null) refuse(`${to} exists: Java keeps one top-level public type per file; move to a new file`);
  if (path.posix.basename(to) !== `${s.name}.java`) refuse(`${to} must be named ${s.name}.java`);
  const pkgA = javaPackage(from, work.target(from).current!);
  const dirA = dirOf(from);
  const dirB = dirOf(to);
  const suffix = pkgA.replace(/\./g, '/');
  if (pkgA && !dirA.endsWith(suffix)) refuse(`${from} declares package ${pkgA}, which does not match its folder`);
  const srcRoot = pkgA ? dirA.slice(0, dirA.length - suffix.length).replace(/\/$/, '') : dirA;
  const relB = srcRoot === '.' || srcRoot === '' ? dirB : path.posix.relative(srcRoot, dirB);
  if (relB.startsWith('..')) refuse(`${dirB} is outside the source root ${srcRoot} of ${from}`);
  const pkgB = relB === '.' || relB === '' ? '' : relB.replace(/\//g, '.');
  const samePackage = dirA === dirB;
  const at = declLine(m);
  let text = m.text;
  const declText = text.split('\n')[at] ?? '';
  const isPublic = /\bpublic\b/.test(declText);
  const imports: string[] = [];
  const homeFacts = importsOf(from, work.target(from).current!);
  for (const f of homeFacts) {
    if (f.kind === 'package') continue;
    if (f.kind === 'wildcard' || f.bindings.some((b) => m.names.has(b.local))) imports.push(f.text.trim());
  }
  if (!samePackage) {
    // Types of its old package it uses: imported, and they must be public.
    const pkgTypes = new Map<string, { path: string; exported: boolean }>();
    for (const f of ctx.engine.fileNodes(ctx.repo, []).filter((f) => dirOf(f.path) === dirA && f.path.endsWith('.java'))) {
      for (const n of ctx.engine.fileSymbols(ctx.repo, f.path)) if (!localOf(n.id).includes('.') && n.id !== s.id && n.kind !== 'file' && n.kind !== 'package') pkgTypes.set(n.name, { path: f.path, exported: n.exported });
    }
    // Imports it takes along that name a type of the old package (`import static a.Scope.X`) need that type public.
    for (const line of imports) {
      const mod = /^import\s+(?:static\s+)?([\w.]+)/.exec(line)?.[1] ?? '';
      if (!pkgA || !mod.startsWith(`${pkgA}.`)) continue;
      const [typeName, member] = mod.slice(pkgA.length + 1).split('.');
      const t = pkgTypes.get(typeName!);
      if (t && !t.exported) refuse(`${s.name} imports ${mod}, and ${typeName} is package-private in ${pkgA}: make it public first, or move it too`);
      if (t && member && /^import\s+static\b/.test(line)) {
        const m2 = ctx.engine.fileSymbols(ctx.repo, t.path).find((n) => localOf(n.id) === `${typeName}.${member}`);
        if (m2 && m2.visibility !== 'public' && !/interface/.test(ctx.engine.getNode(ctx.repo, m2.id.slice(0, m2.id.length - member.length - 1))?.kind ?? '')) {
          refuse(`${s.name} imports ${mod}, which is not public: package ${pkgB || '(default)'} could not reach it`);
        }
      }
    }
    for (const name of m.names) {
      const t = pkgTypes.get(name);
      if (!t) continue;
      if (!t.exported) refuse(`${s.name} uses ${name}, which is package-private in ${pkgA}: make it public first, or move it too`);
      imports.push(`import ${pkgA ? `${pkgA}.` : ''}${name};`);
    }
    // Members of its old package it reaches must stay reachable from the new one.
    const members = ctx.engine.fileSymbols(ctx.repo, from).filter((n) => n.id === s.id || n.id.startsWith(`${s.id}.`));
    for (const mem of members) {
      for (const e of ctx.engine.edges(ctx.repo, mem.id, { direction: 'out', kinds: ['calls', 'references', 'instantiates'] })) {
        const target = ctx.engine.getNode(ctx.repo, e.to);
        if (!target || !target.path || dirOf(target.path) !== dirA || target.id.startsWith(`${s.id}.`) || target.id === s.id) continue;
        if (target.exported || target.kind === 'interface') continue;
        refuse(`${mem.name} uses ${target.qualified}, which is not public: package ${pkgB || '(default)'} could not reach it`);
      }
      // Users left in the old package need its members public.
      if (mem.id === s.id || mem.exported || /interface/.test(s.kind)) continue;
      const us = ctx.engine.query('find_usages', { id: mem.id, limit: 50, include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
      const outside = us.usages.find((u) => !u.from.startsWith(`${s.id}`));
      if (outside) refuse(`${outside.path}:${outside.line} uses ${mem.qualified}, which is not public: it could not reach it from package ${pkgB || '(default)'}`);
    }
    // Members the old package names in text (`S.member`, `import static pkgA.S.member`) — the graph may
    // not resolve a statically imported constant — must be public too.
    if (!/interface/.test(s.kind)) {
      const memberRef = new RegExp(`(?:\\b${s.name}\\s*\\.\\s*|import\\s+static\\s+${pkgA.replace(/\./g, '\\.')}\\.${s.name}\\.)(\\w+)`, 'g');
      for (const file of [from, ...[...m.users.keys()].filter((u) => dirOf(u) === dirA && u !== from)]) {
        for (const hit of work.bytes(file).toString('utf8').matchAll(memberRef)) {
          const mem = members.find((n) => localOf(n.id) === `${s.name}.${hit[1]}`);
          if (mem && mem.visibility !== 'public') refuse(`${file} uses ${s.name}.${hit[1]}, which is not public: it could not reach it from package ${pkgB || '(default)'}`);
        }
      }
    }
    if (!isPublic && (m.homeUses || [...m.users.keys()].some((u) => dirOf(u) !== dirB))) {
      text = prefixDeclaration(text, at, 'public ', /\b(final\s+|abstract\s+|static\s+|sealed\s+)*(class|interface|enum|record|@interface)\b/);
      m.notes.push(`${s.name} is now public (used from package ${pkgA || '(default)'})`);
    }
  }
  const header = `${pkgB ? `package ${pkgB};\n\n` : ''}${[...new Set(imports)].join('\n')}${imports.length > 0 ? '\n\n' : ''}`;
  work.set(to, Buffer.from(header + (text.endsWith('\n') ? text : `${text}\n`).replace(/^\s*\n/, ''), 'utf8'));
  // The old file: gone when it held nothing else.
  const remaining = ctx.engine.fileSymbols(ctx.repo, from).filter((n) => !localOf(n.id).includes('.') && n.id !== s.id && !['file', 'package'].includes(n.kind));
  if (remaining.length === 0) {
    work.set(from, null);
    m.notes.push(`${from} held only ${s.name} and was deleted`);
  } else if (m.homeUses && !samePackage) work.addImports(from, [{ module: `${pkgB}.${s.name}` }]);
  if (samePackage) return text;
  const oldName = `${pkgA}.${s.name}`;
  const newName = `${pkgB}.${s.name}`;
  for (const [file] of m.users) {
    if (file === to) continue;
    let bytes = work.bytes(file);
    const facts = importsOf(file, bytes);
    const plausible = dirOf(file) === dirA || facts.some((f) => f.module === oldName || f.module.startsWith(`${oldName}.`) || (f.kind === 'wildcard' && f.module === pkgA));
    if (m.loose.has(file) && !plausible && !bytes.toString('utf8').includes(oldName)) continue;
    const splices: Splice[] = [];
    let importsIt = false;
    for (const f of facts) {
      if (f.module === oldName || f.module.startsWith(`${oldName}.`)) {
        importsIt = true;
        splices.push(dirOf(file) === dirB && f.module === oldName ? { ...wholeLine(bytes, f), text: '' } : { start: f.start_byte, end: f.end_byte, text: f.text.replace(oldName, newName) });
      }
    }
    bytes = applySplices(bytes, splices);
    // Fully qualified uses.
    bytes = Buffer.from(bytes.toString('utf8').replace(new RegExp(`\\b${oldName.replace(/\./g, '\\.')}\\b(?!\\.\\*)`, 'g'), newName), 'utf8');
    work.set(file, bytes);
    if (!importsIt && dirOf(file) !== dirB) work.addImports(file, [{ module: newName }]);
  }
  return text;
}

/** The whole-line byte range of an import fact. */
function wholeLine(bytes: Buffer, f: { start_line: number; end_line: number }): { start: number; end: number } {
  const [start, end] = lineBytes(bytes, f.start_line, f.end_line);
  return { start, end };
}

// ----- Rust -----------------------------------------------------------------------------------

function moveRust(m: MoveContext): string {
  const { ctx, work, s, from, to } = m;
  const modA = rustModule(from);
  const modB = rustModule(to);
  if (!modA || !modB) refuse(`${!modA ? from : to} is not a module file under a crate's src/`);
  if (from.slice(0, from.indexOf('src/')) !== to.slice(0, to.indexOf('src/'))) refuse(`${from} and ${to} are in different crates`);
  if (work.target(to).current === null) refuse(`${to} does not exist: create the module (and its \`mod\` line) first`);
  const at = declLine(m);
  let text = m.text;
  if (['struct', 'enum', 'class', 'type', 'union', 'trait', 'interface'].includes(s.kind)) {
    const impls = work.bytes(from).toString('utf8');
    if (new RegExp(`\\bimpl\\b[^{;]*\\b${s.name}\\b[^{;]*\\{`).test(impls)) refuse(`${from} has impl blocks for ${s.name}: move them with it by hand (fields and private items would become unreachable)`);
  }
  for (const sib of m.siblings) {
    const line = work.target(from).current!.toString('utf8').split('\n')[sib.start_line - 1] ?? '';
    if (!/^\s*pub\b/.test(line)) refuse(`${s.name} uses ${sib.name}, which is private to ${modA}: make it pub(crate) first, or move it too`);
  }
  const parent = (mod: string): string => mod.split('::').slice(0, -1).join('::') || 'crate';
  const absolute = (p: string, mod: string): string => {
    const parts = p.split('::');
    let base = mod;
    while (parts[0] === 'super') {
      base = parent(base);
      parts.shift();
    }
    if (parts[0] === 'self') return [base, ...parts.slice(1)].join('::');
    return p.startsWith('super::') ? [base, ...parts].join('::') : p;
  };
  const wanted: NewImport[] = m.siblings.map((x) => ({ module: `${modA}::${x.name}` }));
  for (const { binding } of m.needed) {
    const p = absolute(binding.imported, modA);
    wanted.push({ module: p === binding.imported.split('::').slice(-1)[0] ? p : p + (binding.local !== p.split('::').pop() ? ` as ${binding.local}` : '') });
  }
  const declLineText = text.split('\n')[at] ?? '';
  if (!/^\s*pub\b/.test(declLineText) && (m.homeUses || m.users.size > 0)) {
    text = prefixDeclaration(text, at, 'pub(crate) ', /\b(fn|struct|enum|trait|type|const|static|union|mod)\b/);
    m.notes.push(`${s.name} is now pub(crate) (used outside ${modB})`);
  }
  work.addImports(to, wanted);
  work.set(to, appended(work.bytes(to), text));
  if (m.homeUses) work.addImports(from, [{ module: `${modB}::${s.name}` }]);
  for (const [file, lines] of m.users) {
    const modC = rustModule(file);
    if (!modC) refuse(`${file} is not a module file under src/`);
    const bytes = work.bytes(file);
    const splices: Splice[] = [];
    let handled = false;
    for (const f of importsOf(file, bytes)) {
      const b = f.bindings.find((x) => absolute(x.imported, modC) === `${modA}::${s.name}` || (x.imported.split('::').pop() === s.name && absolute(x.imported.split('::').slice(0, -1).join('::'), modC) === modA));
      if (!b) continue;
      handled = true;
      if (file === to) {
        splices.push({ ...wholeLine(bytes, f), text: '' });
        continue;
      }
      if (f.bindings.length === 1) {
        const alias = b.local !== s.name ? ` as ${b.local}` : '';
        splices.push({ start: f.start_byte, end: f.end_byte, text: `${f.kind === 'pub_use' ? 'pub ' : ''}use ${modB}::${s.name}${alias};` });
      } else {
        const flat = /^(\s*(?:pub\s+)?use\s+)([\w:]+)::\{([^{}]*)\};\s*$/.exec(f.text);
        if (!flat) refuse(`${file} imports ${s.name} in a nested use list gortex does not rewrite`);
        const items = flat[3]!.split(',').map((x) => x.trim()).filter(Boolean).filter((x) => x.split(/\s+as\s+/)[0] !== s.name);
        const alias = b.local !== s.name ? ` as ${b.local}` : '';
        splices.push({ start: f.start_byte, end: f.end_byte, text: `${flat[1]}${flat[2]}::{${items.join(', ')}};\n${f.kind === 'pub_use' ? 'pub ' : ''}use ${modB}::${s.name}${alias};` });
      }
    }
    // Qualified paths: `util::half(…)`, `crate::a::S`.
    const all = bytes.toString('utf8').split('\n');
    for (const line of lines) {
      const t = all[line - 1] ?? '';
      if (/^\s*(pub\s+)?use\b/.test(t)) continue;
      const [ls] = lineBytes(bytes, line, line);
      const re = new RegExp(`((?:crate|self|super|[a-z_][a-z0-9_]*)(?:::[a-z_][a-z0-9_]*)*)::${s.name}\\b`, 'g');
      let mm: RegExpExecArray | null;
      while ((mm = re.exec(t)) !== null) {
        const prefix = mm[1]!;
        const abs: string = /^(crate|self|super)\b/.test(prefix) ? absolute(prefix, modC) : `${modC}::${prefix}` === modA ? modA : `crate::${prefix}` === modA ? modA : prefix;
        if (abs !== modA && `${modC}::${prefix}` !== modA) continue;
        const start = ls + Buffer.byteLength(t.slice(0, mm.index));
        splices.push({ start, end: start + Buffer.byteLength(mm[0]), text: file === to ? s.name : `${modB}::${s.name}` });
        handled = true;
      }
    }
    if (!handled && file !== to) unhandled(m, file, `${file} uses ${s.name} in a way gortex cannot rewrite (a glob import or a re-export?)`);
    if (file === to && !handled) continue;
    work.splice(file, splices);
  }
  return text;
}
