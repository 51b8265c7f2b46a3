/**
 * `inline_symbol`: replaces the calls of a trivial function (one expression: `return e`, an
 * expression statement, an arrow's expression) with that expression, arguments substituted for
 * parameters, and deletes the function once nothing else uses it. Everything that would change
 * meaning is refused with its reason: side effects in the body, closures over scope, several
 * statements or returns, receivers, arguments evaluated twice or out of order, names the body
 * uses that are not visible (or are shadowed) where it is called. Go and Java arguments and
 * results are converted to the declared types so constants, overloads and interfaces keep their
 * meaning; the edited files go through the write rules of `ts/workspace/writes.ts`.
 */
import { z } from 'zod';
import { refactorFacts, type CallSiteFact, type CallableFact, type FindUsagesResult } from '../engine/engine';
import { target } from './common';
import { defineTool, ToolInputError } from './registry';
import type { ToolContext } from '../workspace/context';
import { commitWrites, resolveWritable, type PlannedWrite } from '../workspace/writes';
import { freshDeclaration, deletionRange, localOf } from './refactor';
import { applySplices, familyOf, importsOf, isTypeScript, lineBytes, pruneImports, resolveEcma, resolvePythonFrom, type Family, type Splice } from './imports';
import { unifiedDiff } from './edit';

/** Most call sites one inline rewrites. */
const MAX_SITES = 500;

/** The inline tool. */
export const inlineTools = [
  defineTool({
    name: 'inline_symbol',
    category: 'edit',
    effect: 'local_write',
    description:
      'Inline a trivial function (a single return or expression; TS/JS, Python, Go, Java static methods, Rust free functions) at its call sites, arguments substituted for parameters; delete_after removes it once nothing else uses it. ' +
      'Refused with the reason when meaning could change: side effects or closures in the body, several statements or returns, receivers (this/self), arguments evaluated twice or out of order, names the body uses that the call site cannot see or shadows. ' +
      'Go/Java arguments and results keep their declared types (conversions/casts). site narrows it to one call; dry_run shows the diffs.',
    input: {
      id: target,
      site: z
        .object({ path: z.string(), line: z.number().int().positive() })
        .optional()
        .describe('Inline only the call on this line (the function is kept)'),
      delete_after: z.boolean().optional().describe('Delete the function once every call is inlined and nothing else uses it (default false)'),
      dry_run: z.boolean().optional(),
      allow_parse_errors: z.boolean().optional(),
    },
    handler: async (ctx, args) => inline(ctx, args),
  }),
];

interface InlineArgs {
  id: string;
  site?: { path: string; line: number } | undefined;
  delete_after?: boolean | undefined;
  dry_run?: boolean | undefined;
  allow_parse_errors?: boolean | undefined;
}

/** A Go type as the operand of a conversion: `*T`, `func…` and channel types need parentheses. */
function goConversion(type: string, value: string): string {
  const t = type.trim();
  return /^(\*|func\b|<-|chan\b)/.test(t) ? `(${t})(${value})` : `${t}(${value})`;
}

/** Java types every file can name: primitives and java.lang. */
const JAVA_LANG = /^(byte|short|int|long|float|double|boolean|char|void|var|String|Object|Integer|Long|Short|Byte|Double|Float|Boolean|Character|Number|CharSequence|Iterable|Comparable|Runnable|Class|Void|Math|StringBuilder|Exception|RuntimeException|Throwable|Error)$/;

/** The folder of a repository path ('.' at the root). */
function dirOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.lastIndexOf('/')) : '.';
}

const RUST_NUMERIC = /^(i8|i16|i32|i64|i128|isize|u8|u16|u32|u64|u128|usize|f32|f64)$/;

/** The text an argument becomes where a parameter was. */
function argumentText(family: Family, arg: CallSiteFact['args'][number], type: string | null): string {
  const wrapped = arg.primary ? arg.text : `(${arg.text})`;
  if (family === 'go' && type) return goConversion(type, arg.text);
  if (family === 'java' && type) return `((${type}) ${wrapped})`;
  if (family === 'rust' && type && arg.literal && RUST_NUMERIC.test(type.trim())) return `(${arg.text} as ${type.trim()})`;
  return wrapped;
}

/** The body expression with `args` substituted (no outer wrapping). */
function substitute(fact: CallableFact, family: Family, args: CallSiteFact['args']): string {
  const expr = Buffer.from(fact.expr, 'utf8');
  const splices: Splice[] = fact.occurrences.map((o) => {
    const p = fact.params[o.param]!;
    const value = argumentText(family, args[o.param]!, p.type);
    return { start: o.start, end: o.end, text: o.shorthand ? `${p.name}: ${value}` : value };
  });
  return applySplices(expr, splices).toString('utf8');
}

/** The arguments of `site` in parameter order, or why they do not fit the parameters. */
function bindArguments(fact: CallableFact, site: CallSiteFact): CallSiteFact['args'] | string {
  const out: (CallSiteFact['args'][number] | undefined)[] = new Array(fact.params.length).fill(undefined);
  let position = 0;
  for (const a of site.args) {
    if (a.keyword) {
      const i = fact.params.findIndex((p) => p.name === a.keyword);
      if (i < 0 || out[i]) return `keyword argument ${a.keyword} matches no free parameter`;
      out[i] = a;
    } else {
      if (position >= fact.params.length) return `it passes ${site.args.length} arguments to ${fact.params.length} parameters`;
      out[position++] = a;
    }
  }
  if (out.some((a) => a === undefined)) return `it passes ${site.args.length} arguments to ${fact.params.length} parameters`;
  return out as CallSiteFact['args'];
}

/** Why substituting `args` would evaluate something twice, not at all, or in another order; undefined when it is safe. */
function evaluationHazard(fact: CallableFact, args: CallSiteFact['args']): string | undefined {
  const uses = fact.params.map((_, i) => fact.occurrences.filter((o) => o.param === i));
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.pure) continue;
    if (uses[i]!.length !== 1) return `argument \`${a.text}\` would be evaluated ${uses[i]!.length} times instead of once`;
  }
  // Impure arguments keep their order, and nothing in the body runs before them.
  const impure = fact.occurrences.filter((o) => !args[o.param]!.pure).sort((a, b) => a.start - b.start);
  for (let k = 1; k < impure.length; k++) {
    if (impure[k]!.param < impure[k - 1]!.param) return `arguments \`${args[impure[k - 1]!.param]!.text}\` and \`${args[impure[k]!.param]!.text}\` would be evaluated in the other order`;
  }
  for (const o of fact.occurrences) {
    const a = args[o.param]!;
    if (a.literal) continue;
    const earlier = fact.calls.find((c) => c.end <= o.start);
    if (earlier && (!a.pure || /[A-Za-z_$]/.test(a.text))) {
      return `the body calls \`${fact.expr.slice(earlier.start, earlier.end)}\` before it reads ${fact.params[o.param]!.name}, so \`${a.text}\` would be read after that call instead of before`;
    }
  }
  return undefined;
}

/** Whether `name` is declared (a parameter, a variable, a loop variable) inside `text`, a caller's source. */
function declaresName(family: Family, text: string, name: string): boolean {
  const n = name.replace(/\$/g, '\\$');
  const patterns: Record<Family, RegExp[]> = {
    ecma: [new RegExp(`\\b(let|const|var|function|class)\\s+${n}\\b`), new RegExp(`[(,]\\s*${n}\\s*[:,)=]`), new RegExp(`[{,]\\s*${n}\\s*[,}]\\s*=`), new RegExp(`\\b${n}\\s*=>`)],
    python: [new RegExp(`^\\s*${n}\\s*(:[^=]*)?=[^=]`, 'm'), new RegExp(`\\bfor\\s+([\\w\\s,]*,\\s*)?${n}\\b`), new RegExp(`\\bas\\s+${n}\\b`), new RegExp(`[(,]\\s*${n}\\s*[:,)=]`), new RegExp(`\\bdef\\s+${n}\\b`), new RegExp(`\\bimport\\s+.*\\b${n}\\b`)],
    go: [new RegExp(`\\b${n}\\s*(,\\s*\\w+\\s*)*:=`), new RegExp(`,\\s*${n}\\s*(,\\s*\\w+\\s*)*:=`), new RegExp(`\\bvar\\s+${n}\\b`), new RegExp(`[(,]\\s*${n}\\s+[\\w*\\[]`), new RegExp(`\\bconst\\s+${n}\\b`)],
    java: [new RegExp(`[\\w>\\]]\\s+${n}\\s*[=;:,)]`)],
    rust: [new RegExp(`\\blet\\s+(mut\\s+)?${n}\\b`), new RegExp(`[(,|]\\s*(mut\\s+)?${n}\\s*:`), new RegExp(`\\bfor\\s+${n}\\b`), new RegExp(`\\|\\s*${n}\\s*\\|`)],
  };
  return patterns[family].some((p) => p.test(text));
}

async function inline(ctx: ToolContext, args: InlineArgs): Promise<Record<string, unknown>> {
  const s = await freshDeclaration(ctx, args.id, 'inline_symbol inlines functions');
  const family = familyOf(s.file_path);
  if (!family) throw new ToolInputError('not_supported', `${s.file_path}: inline_symbol handles TypeScript/JavaScript, Python, Go, Java and Rust`);
  const home = resolveWritable(ctx.root, s.file_path, { create: false });
  const fact = refactorFacts(s.file_path, home.current!, 'callable', { line: s.start_line });
  if (fact.refusal) throw new ToolInputError('not_inlinable', `${s.id} cannot be inlined: ${fact.refusal}; nothing was written`);
  if (fact.free.some((f) => f.name === fact.name)) throw new ToolInputError('not_inlinable', `${s.id} is recursive; nothing was written`);
  if (family === 'ecma' && /^\s*(asserts\s+)?[A-Za-z_$][\w$]*\s+is\s/.test(fact.return_type ?? '')) {
    throw new ToolInputError('not_inlinable', `${s.id} is a type guard (${fact.return_type}): its callers' narrowing would be lost; nothing was written`);
  }

  // The names the body uses that its own file provides: its declarations and its imports.
  const homeImports = importsOf(s.file_path, home.current!);
  const importedAt = (file: string, buf: Buffer, name: string): string | undefined => {
    const fam = familyOf(file)!;
    for (const i of importsOf(file, buf)) {
      const b = i.bindings.find((x) => x.local === name);
      if (!b) continue;
      if (fam === 'ecma') return `${i.module.startsWith('.') ? (resolveEcma(ctx.root, file, i.module) ?? i.module) : i.module}#${b.imported}`;
      if (fam === 'python') return `${i.kind === 'module' ? '' : resolvePythonFrom(ctx.root, file, i.module)}#${b.imported}`;
      return `${i.module}#${b.imported}`;
    }
    return undefined;
  };
  // Names its file declares where the body can see them: top-level ones (Java: the class's members too).
  const topLevel = new Set(ctx.engine.fileSymbols(ctx.repo, s.file_path).filter((n) => family === 'java' || !localOf(n.id).includes('.')).map((n) => n.name));
  const homeDir = dirOf(s.file_path);
  // Java: the simple type names the casts will write (primitives and java.lang need no import).
  const javaTypes = [...fact.params.map((p) => p.type ?? ''), fact.return_type ?? ''].flatMap((t) => t.match(/[A-Za-z_][A-Za-z0-9_]*/g) ?? []);
  const freeNames = [...new Set(fact.free.map((f) => f.name))];

  const usages = ctx.engine.query('find_usages', { id: s.id, limit: 1000, min_tier: 'text_matched', include_tests: true }, { repo: ctx.repo }) as FindUsagesResult;
  if (usages.truncated || usages.total > MAX_SITES) throw new ToolInputError('too_large', `${s.id} has ${usages.total} references; inline_symbol rewrites at most ${MAX_SITES}`);
  const byFile = new Map<string, Set<number>>();
  for (const u of usages.usages) byFile.set(u.path, new Set([...(byFile.get(u.path) ?? []), u.line]));
  if (args.site) {
    if (!byFile.get(args.site.path)?.has(args.site.line)) throw new ToolInputError('not_found', `the graph records no use of ${s.id} at ${args.site.path}:${args.site.line}`);
    for (const p of [...byFile.keys()]) if (p !== args.site.path) byFile.delete(p);
    byFile.set(args.site.path, new Set([args.site.line]));
  }

  const refusals: { path: string; line: number; reason: string }[] = [];
  const inlined: { path: string; line: number; before: string; after: string }[] = [];
  const edited = new Map<string, { target: ReturnType<typeof resolveWritable>; splices: Splice[] }>();
  let otherUses = 0;
  for (const [file, lines] of [...byFile.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const t = resolveWritable(ctx.root, file, { create: false });
    const buf = t.current!;
    if (familyOf(file) !== family) {
      otherUses += lines.size;
      continue;
    }
    const sites = refactorFacts(file, buf, 'calls', { name: fact.name }).filter((c) => lines.has(c.line) && !(file === s.file_path && c.start >= lineBytes(buf, fact.start_line, fact.end_line)[0] && c.end <= lineBytes(buf, fact.start_line, fact.end_line)[1]));
    const covered = new Set(sites.map((c) => c.line));
    for (const l of lines) {
      if (!covered.has(l)) otherUses++; // an import, a reference as a value, a type position
    }
    const splices: Splice[] = [];
    for (const site of sites) {
      const refuse = (reason: string): void => void refusals.push({ path: file, line: site.line, reason });
      if (site.refusal) {
        refuse(`the call uses ${site.refusal}`);
        continue;
      }
      if (!fact.returns_value && !site.statement) {
        refuse(`its value is used, but ${fact.name} returns nothing`);
        continue;
      }
      const bound = bindArguments(fact, site);
      if (typeof bound === 'string') {
        refuse(bound);
        continue;
      }
      const hazard = evaluationHazard(fact, bound);
      if (hazard) {
        refuse(hazard);
        continue;
      }
      // Names the body uses must mean the same where it lands.
      const caller = site.enclosing ? buf.subarray(site.enclosing.start, site.enclosing.end).toString('utf8') : '';
      const callerOutsideCall = caller ? caller.replace(buf.subarray(site.start, site.end).toString('utf8'), '') : '';
      let blocked: string | undefined;
      if (family === 'java' && file !== s.file_path && dirOf(file) !== homeDir && (freeNames.length > 0 || javaTypes.some((t) => !JAVA_LANG.test(t)))) {
        blocked = `${file} is in another package, where the names and types the body uses may not be visible`;
      }
      for (const name of blocked ? [] : freeNames) {
        if (callerOutsideCall && declaresName(family, callerOutsideCall, name)) {
          blocked = `the caller declares its own \`${name}\`, which the body's \`${name}\` would then mean`;
          break;
        }
        if (file === s.file_path) continue;
        const fromHome = importedAt(s.file_path, home.current!, name);
        const declaredHome = topLevel.has(name);
        if (!fromHome && !declaredHome) continue; // a builtin or a global
        const samePackage = (family === 'go' || family === 'java') && dirOf(file) === homeDir;
        if (family === 'java' && declaredHome) {
          blocked = `the body uses \`${name}\`, a member of ${s.file_path}'s class, which ${file} cannot name unqualified`;
          break;
        }
        if (declaredHome && samePackage) continue;
        const there = importedAt(file, buf, name);
        const want = fromHome ?? (family === 'ecma' ? `${s.file_path}#${name}` : family === 'python' ? `${resolvePythonFrom(ctx.root, s.file_path, '.')}#${name}` : undefined);
        if (there === undefined || want === undefined || there !== want) {
          blocked = `the body uses \`${name}\`, which ${file} does not ${declaredHome ? 'import from ' + s.file_path : 'import the same way'}`;
          break;
        }
      }
      if (blocked) {
        refuse(blocked);
        continue;
      }
      let value = substitute(fact, family, bound);
      const ret = fact.return_type?.trim();
      const exprIsCall = /call|invocation|creation/.test(fact.expr_kind);
      if (site.statement && fact.returns_value && (family === 'go' || family === 'java') && !exprIsCall) {
        refuse(`its value is discarded there, and ${family === 'go' ? 'Go' : 'Java'} does not allow \`${fact.expr}\` as a statement`);
        continue;
      }
      if (fact.returns_value && !site.statement && ret) {
        if (family === 'go') value = goConversion(ret, value);
        else if (family === 'java') value = `((${ret}) ${fact.expr_primary ? value : `(${value})`})`;
        else if (family === 'ecma' && isTypeScript(file)) value = `(${fact.expr_primary ? value : `(${value})`} as ${ret})`;
        else if (!fact.expr_primary) value = `(${value})`;
      } else if (!site.statement && !fact.expr_primary) value = `(${value})`;
      if (family === 'python' && value.includes('\n') && !value.startsWith('(')) value = `(${value})`;
      // Continuation lines take the call line's indentation.
      const lineStart = buf.lastIndexOf(10, site.start - 1) + 1;
      const indent = /^[ \t]*/.exec(buf.subarray(lineStart, site.start).toString('utf8'))![0];
      const exprIndent = /\n([ \t]*)\S/.exec(fact.expr)?.[1];
      if (exprIndent !== undefined) value = value.replace(new RegExp(`\\n${exprIndent}`, 'g'), `\n${indent}    `);
      splices.push({ start: site.start, end: site.end, text: value });
      const [ls, le] = lineBytes(buf, site.line, site.end_line);
      inlined.push({ path: file, line: site.line, before: buf.subarray(ls, le).toString('utf8').replace(/\r?\n$/, ''), after: '' });
    }
    if (splices.length > 0) edited.set(file, { target: t, splices });
  }
  if (inlined.length === 0) {
    throw new ToolInputError(
      'not_inlinable',
      refusals.length > 0
        ? `no call of ${s.id} can be inlined: ${refusals.slice(0, 5).map((r) => `${r.path}:${r.line} (${r.reason})`).join('; ')}; nothing was written`
        : `${s.id} has no calls to inline${otherUses > 0 ? ` (it is used ${otherUses} time${otherUses === 1 ? '' : 's'} as a value or import)` : ''}; nothing was written`,
    );
  }

  // Delete the function when every use was an inlined call (imports of it are pruned below).
  const importUses = (file: string): number => {
    const fam = familyOf(file);
    if (!fam) return 0;
    const buf = edited.get(file)?.target.current ?? resolveWritable(ctx.root, file, { create: false }).current!;
    return importsOf(file, buf).filter((i) => i.bindings.some((b) => b.local === fact.name || b.imported.split(/[.:#]+/).pop() === fact.name)).length;
  };
  const nonImportUses = otherUses - [...byFile.keys()].reduce((n, f) => n + Math.min(importUses(f), byFile.get(f)!.size), 0);
  const deleting = !args.site && args.delete_after === true && refusals.length === 0 && nonImportUses <= 0;
  if (deleting) {
    const entry = edited.get(s.file_path) ?? { target: home, splices: [] };
    const lines = home.current!.toString('utf8').split('\n');
    const [from, to] = deletionRange(lines, fact.start_line, fact.end_line);
    const [bs, be] = lineBytes(home.current!, from, to);
    entry.splices.push({ start: bs, end: be, text: '' });
    edited.set(s.file_path, entry);
    // Files that import it but had no call left to inline still lose the import.
    for (const f of byFile.keys()) {
      if (!edited.has(f) && importUses(f) > 0) {
        const t = resolveWritable(ctx.root, f, { create: false });
        edited.set(f, { target: t, splices: [] });
      }
    }
  }
  const plans: PlannedWrite[] = [];
  const pruned: Record<string, string[]> = {};
  const gone = deleting ? [{ module: '', name: fact.name }] : [];
  for (const [file, { target: t, splices }] of [...edited.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const after = applySplices(t.current!, splices);
    const { bytes, removed } = pruneImports(file, t.current, after, gone);
    if (removed.length > 0) pruned[file] = removed;
    plans.push({ target: t, after: bytes });
  }
  const written = await commitWrites(ctx, plans, { dryRun: args.dry_run === true, allowParseErrors: args.allow_parse_errors === true });
  const store = ctx.session?.store;
  if (store && !args.dry_run) for (const w of written) store.recordEdit('file', w.path, w.path, 'inline_symbol');
  for (const row of inlined) {
    const plan = plans.find((p) => p.target.rel === row.path)!;
    row.after = plan.after!.toString('utf8').split('\n').slice(row.line - 1, row.line + 1).join('\n').replace(/\r/g, '');
  }
  return {
    status: args.dry_run ? 'would_apply' : 'applied',
    id: s.id,
    expression: fact.expr,
    inlined: inlined.map(({ path, line, before }) => ({ path, line, before })),
    ...(refusals.length > 0 ? { refused: refusals } : {}),
    declaration: deleting ? 'deleted' : args.site ? 'kept (one call inlined)' : refusals.length > 0 ? 'kept (some calls were refused)' : nonImportUses > 0 ? `kept (used ${nonImportUses} more time${nonImportUses === 1 ? '' : 's'} as a value)` : 'kept (pass delete_after: true to remove it)',
    ...(Object.keys(pruned).length > 0 ? { imports_removed: pruned } : {}),
    files: written.map((w) => ({ ...w, reindexed: args.dry_run !== true })),
    diffs: plans.map((p) => unifiedDiff(p.target.rel, p.target.current!.toString('utf8'), p.after!.toString('utf8'), false).diff),
  };
}
