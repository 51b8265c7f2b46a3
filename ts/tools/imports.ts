/**
 * Import statements as the refactoring tools edit them: which language family a file is, how a
 * module specifier resolves to a repository file, adding an import (merged into one of the same
 * module where the language allows), and pruning the imports an edit left unused. Byte-exact:
 * every edit is a splice of the file's bytes at offsets from `refactorFacts`.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { refactorFacts, type ImportFact } from '../engine/engine';

/** The families the refactoring tools handle. */
export type Family = 'ecma' | 'python' | 'go' | 'java' | 'rust';

/** A file's family by its name, or undefined. */
export function familyOf(file: string): Family | undefined {
  if (/\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/.test(file)) return 'ecma';
  if (/\.pyi?$/.test(file)) return 'python';
  if (file.endsWith('.go')) return 'go';
  if (file.endsWith('.java')) return 'java';
  if (file.endsWith('.rs')) return 'rust';
  return undefined;
}

/** Whether a file is TypeScript (types may be written in it). */
export function isTypeScript(file: string): boolean {
  return /\.(ts|tsx|mts|cts)$/.test(file);
}

/** One byte-range replacement. */
export interface Splice {
  start: number;
  end: number;
  text: string;
}

/** `buf` with `splices` applied (they must not overlap). */
export function applySplices(buf: Buffer, splices: readonly Splice[]): Buffer {
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = buf;
  let floor = Infinity;
  for (const s of sorted) {
    if (s.end > floor) throw new Error(`overlapping edits at byte ${s.start}`);
    out = Buffer.concat([out.subarray(0, s.start), Buffer.from(s.text, 'utf8'), out.subarray(s.end)]);
    floor = s.start;
  }
  return out;
}

/** The byte range of whole lines `from..to` (1-based), newline included. */
export function lineBytes(buf: Buffer, from: number, to: number): [number, number] {
  let start = 0;
  for (let l = 1; l < from; l++) start = buf.indexOf(10, start) + 1;
  let end = start;
  for (let l = from; l <= to; l++) {
    const nl = buf.indexOf(10, end);
    end = nl < 0 ? buf.length : nl + 1;
  }
  return [start, end];
}

/** Widens [start,end) to whole lines when nothing else shares them (so a removed statement leaves no blank). */
function wholeLines(buf: Buffer, start: number, end: number): [number, number] {
  let s = start;
  while (s > 0 && (buf[s - 1] === 32 || buf[s - 1] === 9)) s--;
  let e = end;
  while (e < buf.length && (buf[e] === 32 || buf[e] === 9 || buf[e] === 59)) e++;
  if ((s === 0 || buf[s - 1] === 10) && (e === buf.length || buf[e] === 10 || buf[e] === 13)) {
    if (buf[e] === 13) e++;
    if (buf[e] === 10) e++;
    return [s, e];
  }
  return [start, end];
}

/** The import facts of `buf` read as `file`. */
export function importsOf(file: string, buf: Buffer): ImportFact[] {
  return refactorFacts(file, buf, 'imports');
}

/** Whether an import is at module level (it starts a line unindented, or is a spec of a Go import block), not inside a function or block. */
export function topLevel(buf: Buffer, fact: ImportFact): boolean {
  return fact.kind === 'spec_in_list' || fact.kind === 'spec' || fact.start_byte === 0 || buf[fact.start_byte - 1] === 10;
}

// ----- module paths ---------------------------------------------------------------------------

const ECMA_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts', '.d.ts', '.js', '.jsx', '.mjs', '.cjs'];

/** The repository file a relative TS/JS specifier in `from` names, or undefined (a package, an alias). */
export function resolveEcma(root: string, from: string, specifier: string): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  const stem = base.replace(/\.(js|jsx|mjs|cjs)$/, '');
  const candidates = [base, ...ECMA_EXTENSIONS.map((e) => stem + e), ...ECMA_EXTENSIONS.map((e) => `${base}/index${e}`)];
  return candidates.find((c) => !c.startsWith('..') && fs.existsSync(path.join(root, c)) && fs.statSync(path.join(root, c)).isFile());
}

/** A relative specifier from `from` to `to`, in the style of `like` (an existing specifier: extension or not). */
export function ecmaSpecifier(from: string, to: string, like?: string): string {
  let rel = path.posix.relative(path.posix.dirname(from), to);
  if (!rel.startsWith('.')) rel = `./${rel}`;
  const ext = path.posix.extname(to);
  const stem = rel.slice(0, rel.length - ext.length);
  if (like && /\.(js|mjs|cjs)$/.test(like)) return stem + (ext === '.mts' ? '.mjs' : ext === '.cts' ? '.cjs' : ext.startsWith('.ts') || ext === '.tsx' ? '.js' : ext);
  if (like && /\.tsx?$/.test(like)) return rel;
  return stem.endsWith('/index') ? stem.slice(0, -'/index'.length) || '.' : stem;
}

/** The dotted Python module a repository file is: its packages (folders with `__init__.py`) and its name (`src/pkg/mod.py` → `pkg.mod`). */
export function pythonModule(root: string, file: string): string {
  const parts = file.replace(/\.pyi?$/, '').split('/');
  const dirs = parts.slice(0, -1);
  let top = dirs.length;
  while (top > 0 && fs.existsSync(path.join(root, ...dirs.slice(0, top), '__init__.py'))) top--;
  const mod = [...dirs.slice(top), parts[parts.length - 1]!];
  if (mod[mod.length - 1] === '__init__') mod.pop();
  return mod.join('.');
}

/** The dotted module a Python `from X import` names in `file` (relative dots resolved). */
export function resolvePythonFrom(root: string, file: string, module: string): string {
  const dots = /^\.*/.exec(module)![0].length;
  if (dots === 0) return module;
  const own = pythonModule(root, file).split('.');
  const isPackage = /__init__\.pyi?$/.test(file);
  const base = own.slice(0, own.length - (isPackage ? 0 : 1) - (dots - 1));
  const rest = module.slice(dots);
  return [...base, ...(rest ? [rest] : [])].join('.');
}

/** The Go module path and its folder (the nearest `go.mod` above `dir`), or undefined. */
export function goModule(root: string, dir: string): { path: string; dir: string } | undefined {
  for (let d = dir; ; d = path.posix.dirname(d)) {
    const mod = path.join(root, d === '.' ? '' : d, 'go.mod');
    if (fs.existsSync(mod)) {
      const m = /^module\s+(\S+)/m.exec(fs.readFileSync(mod, 'utf8'));
      if (m) return { path: m[1]!, dir: d };
    }
    if (d === '.' || d === '' || d === '/') return undefined;
  }
}

/** The import path of the Go package in folder `dir`. */
export function goImportPath(root: string, dir: string): string | undefined {
  const mod = goModule(root, dir);
  if (!mod) return undefined;
  const rel = path.posix.relative(mod.dir === '.' ? '' : mod.dir, dir === '.' ? '' : dir);
  return rel ? `${mod.path}/${rel}` : mod.path;
}

/** The package name files in Go folder `dir` declare (or the folder's name when it has none yet). */
export function goPackageName(root: string, dir: string): string {
  const abs = path.join(root, dir);
  if (fs.existsSync(abs)) {
    for (const f of fs.readdirSync(abs).filter((n) => n.endsWith('.go') && !n.endsWith('_test.go')).sort()) {
      const m = /^package\s+(\w+)/m.exec(fs.readFileSync(path.join(abs, f), 'utf8'));
      if (m) return m[1]!;
    }
  }
  return path.posix.basename(dir).replace(/[^A-Za-z0-9_]/g, '_');
}

/** The Rust module path (`crate::a::b`) of a file under a crate's `src/`, or undefined. */
export function rustModule(file: string): string | undefined {
  const m = /^(?:(.*)\/)?src\/(.*)\.rs$/.exec(file);
  if (!m) return undefined;
  const parts = m[2]!.split('/');
  const last = parts[parts.length - 1];
  if (parts.length === 1 && (last === 'lib' || last === 'main')) return 'crate';
  if (last === 'mod') parts.pop();
  return ['crate', ...parts].join('::');
}

/** The Java package a file declares (its `package` line), or ''. */
export function javaPackage(file: string, buf: Buffer): string {
  return importsOf(file, buf).find((i) => i.kind === 'package')?.module ?? '';
}

// ----- adding imports -------------------------------------------------------------------------

/** An import to add: in TS/JS and Python a name from a module; in Go an import path; in Java/Rust a path. */
export interface NewImport {
  /** TS/JS specifier, Python dotted module, Go import path, Java qualified class, Rust use path. */
  module: string;
  /** TS/JS and Python: the exported name; `local` when it is bound under another name. */
  name?: string;
  local?: string;
  /** TS: `import type`. */
  typeOnly?: boolean;
}

/** Where new imports go: after the last import, else after the header (package, shebang, docstring, directives). */
function insertionPoint(family: Family, buf: Buffer, imports: readonly ImportFact[]): number {
  let real = imports.filter((i) => i.kind !== 'package' && topLevel(buf, i));
  if (family === 'python') real = leadingBlock(buf, real);
  if (real.length > 0) return lineBytes(buf, real[real.length - 1]!.end_line, real[real.length - 1]!.end_line)[1];
  const lines = buf.toString('utf8').split('\n');
  // Go and Java: right after the package line.
  if (family === 'go' || family === 'java') {
    const pkg = lines.findIndex((l) => /^\s*package\b/.test(l));
    return pkg < 0 ? 0 : lineBytes(buf, pkg + 1, pkg + 1)[1];
  }
  // Elsewhere: after the header (a shebang, comments, directives; Python's module docstring first).
  const headerLine: (l: string) => boolean =
    family === 'python'
      ? (l) => /^\s*(#|$)/.test(l)
      : family === 'ecma'
        ? (l) => /^\s*(#!|\/\/|\/\*|\*|['"]use (strict|client|server)['"];?\s*$|$)/.test(l)
        : (l) => /^\s*(\/\/!|#!\[|$)/.test(l);
  const doc = family === 'python' ? /^(\s*#[^\n]*\n)*\s*(?:[rbuRBU]{0,2})("""|''')[\s\S]*?\2[^\n]*\n/.exec(buf.toString('utf8')) : null;
  const offset = doc ? Buffer.byteLength(doc[0]) : 0;
  const tail = buf.subarray(offset).toString('utf8').split('\n');
  let at = 0;
  while (at < tail.length - 1 && headerLine(tail[at]!)) at++;
  return offset + Buffer.byteLength(tail.slice(0, at).join('\n') + (at > 0 ? '\n' : ''));
}

/**
 * The imports of a Python file's opening block: those before its first statement that is not an
 * import (a comment, a blank line or the docstring may sit between). A new import goes after them,
 * never after module code that may already use the name.
 */
function leadingBlock(buf: Buffer, imports: readonly ImportFact[]): ImportFact[] {
  const lines = buf.toString('utf8').split('\n');
  const sorted = [...imports].sort((a, b) => a.start_line - b.start_line);
  const out: ImportFact[] = [];
  let line = 1;
  const doc = /^\s*(?:[rbuRBU]{0,2})("""|\'\'\')/.exec(lines.find((l) => l.trim() !== '' && !l.trim().startsWith('#')) ?? '');
  for (const fact of sorted) {
    let clear = true;
    for (let l = line; l < fact.start_line && clear; l++) {
      const t = lines[l - 1] ?? '';
      if (t.trim() === '' || t.trim().startsWith('#')) continue;
      // The module docstring (first statement) may precede the imports.
      if (doc && out.length === 0) continue;
      clear = false;
    }
    if (!clear) break;
    out.push(fact);
    line = fact.end_line + 1;
  }
  return out;
}

/** The text of a TS/JS import of `names` from `module` (quote style and semicolon as in `like`). */
function ecmaImportText(module: string, names: { name: string; local?: string }[], typeOnly: boolean, like?: string): string {
  const quote = like && /from\s+"/.test(like) ? '"' : "'";
  const semi = like === undefined || /;\s*$/.test(like) ? ';' : '';
  const def = names.find((n) => n.name === 'default');
  const named = names.filter((n) => n.name !== 'default').map((n) => (n.local && n.local !== n.name ? `${n.name} as ${n.local}` : n.name));
  const parts = [...(def ? [def.local ?? 'default'] : []), ...(named.length > 0 ? [`{ ${named.join(', ')} }`] : [])];
  return `import ${typeOnly ? 'type ' : ''}${parts.join(', ')} from ${quote}${module}${quote}${semi}`;
}

/** `buf` (the file `file`) with `wanted` imported; imports already there are left as they are. */
export function addImports(file: string, buf: Buffer, wanted: readonly NewImport[]): Buffer {
  const family = familyOf(file);
  if (!family || wanted.length === 0) return buf;
  const imports = importsOf(file, buf).filter((i) => topLevel(buf, i));
  const splices: Splice[] = [];
  const fresh: string[] = [];
  const byModule = new Map<string, NewImport[]>();
  for (const w of wanted) byModule.set(`${w.typeOnly ? 'type ' : ''}${w.module}`, [...(byModule.get(`${w.typeOnly ? 'type ' : ''}${w.module}`) ?? []), w]);
  for (let list of byModule.values()) {
    const module = list[0]!.module;
    switch (family) {
      case 'ecma': {
        const typeOnly = list[0]!.typeOnly === true;
        for (const ns of list.filter((w) => w.name === '*')) {
          if (!imports.some((i) => i.module === module && i.kind === 'namespace' && i.bindings.some((b) => b.local === ns.local))) {
            fresh.push(`import ${typeOnly ? 'type ' : ''}* as ${ns.local} from '${module}';`);
          }
        }
        list = list.filter((w) => w.name !== '*');
        if (list.length === 0) break;
        const missing = list.filter((w) => !imports.some((i) => i.module === module && i.bindings.some((b) => b.local === (w.local ?? w.name))));
        if (missing.length === 0) break;
        const existing = imports.find((i) => i.module === module && i.kind === 'named' && i.type_only === typeOnly && !splices.some((s) => s.start === i.start_byte));
        const names = missing.map((w) => ({ name: w.name!, ...(w.local ? { local: w.local } : {}) }));
        if (existing) {
          const all = [...existing.bindings.map((b) => ({ name: b.imported, local: b.local })), ...names];
          splices.push({ start: existing.start_byte, end: existing.end_byte, text: ecmaImportText(module, all, typeOnly, existing.text) });
        } else fresh.push(ecmaImportText(module, names, typeOnly, imports[0]?.text));
        break;
      }
      case 'python': {
        for (const plain of list.filter((w) => w.name === undefined)) {
          const local = plain.local ?? plain.module.split('.')[0];
          if (!imports.some((i) => i.kind === 'module' && i.bindings.some((b) => b.imported === plain.module && b.local === local))) {
            fresh.push(plain.local && plain.local !== plain.module.split('.')[0] ? `import ${plain.module} as ${plain.local}` : `import ${plain.module}`);
          }
        }
        list = list.filter((w) => w.name !== undefined);
        if (list.length === 0) break;
        const missing = list.filter((w) => !imports.some((i) => i.module === module && i.bindings.some((b) => b.local === (w.local ?? w.name))));
        if (missing.length === 0) break;
        const names = missing.map((w) => (w.local && w.local !== w.name ? `${w.name} as ${w.local}` : w.name!));
        const existing = imports.find((i) => i.module === module && i.kind === 'named' && !i.text.includes('('));
        if (existing) splices.push({ start: existing.end_byte, end: existing.end_byte, text: `, ${names.join(', ')}` });
        else fresh.push(`from ${module} import ${names.join(', ')}`);
        break;
      }
      case 'go': {
        if (imports.some((i) => i.module === module && i.kind !== 'package')) break;
        const alias = list[0]!.local ? `${list[0]!.local} ` : '';
        const block = imports.find((i) => i.kind === 'spec_in_list');
        if (block) {
          const [, end] = wholeLines(buf, block.start_byte, block.end_byte);
          splices.push({ start: end, end, text: `\t${alias}"${module}"\n` });
        } else fresh.push(`import ${alias}"${module}"`);
        break;
      }
      case 'java':
        if (!imports.some((i) => i.module === module && i.kind === 'single')) fresh.push(`import ${module};`);
        break;
      case 'rust':
        if (!imports.some((i) => i.bindings.some((b) => b.imported === module))) fresh.push(`use ${module};`);
        break;
    }
  }
  if (fresh.length > 0) {
    const at = insertionPoint(family, buf, imports);
    const separate = imports.filter((i) => i.kind !== 'package').length === 0 && at < buf.length;
    const lead = (family === 'go' || family === 'java') && imports.filter((i) => i.kind !== 'package').length === 0 ? '\n' : '';
    splices.push({ start: at, end: at, text: `${lead}${fresh.join('\n')}\n${separate ? '\n' : ''}` });
  }
  return applySplices(buf, splices);
}

// ----- pruning --------------------------------------------------------------------------------

/** The text of an import statement keeping only `keep` of its bindings (TS/JS, Python), or undefined to drop it. */
function regenerate(family: Family, fact: ImportFact, keep: ImportFact['bindings']): string | undefined {
  if (keep.length === 0) return undefined;
  if (family === 'ecma') {
    if (fact.kind === 'namespace') return fact.text;
    const typeOnly = fact.type_only;
    return ecmaImportText(fact.module, keep.map((b) => ({ name: b.imported, local: b.local })), typeOnly, fact.text);
  }
  if (family === 'python') {
    const names = keep.map((b) => (b.local !== b.imported && fact.kind !== 'module' ? `${b.imported} as ${b.local}` : fact.kind === 'module' && b.local !== b.imported.split('.')[0] ? `${b.imported} as ${b.local}` : b.imported));
    return fact.kind === 'module' ? `import ${names.join(', ')}` : `from ${fact.module} import ${names.join(', ')}`;
  }
  return fact.text;
}

/**
 * `after` (the file `file` as an edit left it) without the import bindings the edit made unused:
 * bound and used in `before`, bound and unused in `after`, plus any binding of a name in `gone`
 * (declarations the edit removed from the repository: a Java static import, a Rust `use`).
 * Go and TypeScript refuse unused imports (Go always, TS under `noUnusedLocals`). A JS import
 * whose every name goes is kept as a bare `import 'x'` (its module may have side effects).
 */
export function pruneImports(file: string, before: Buffer | null, after: Buffer, gone: readonly { module: string; name: string }[] = []): { bytes: Buffer; removed: string[] } {
  const family = familyOf(file);
  if (!family) return { bytes: after, removed: [] };
  const was = new Set(before ? importsOf(file, before).flatMap((i) => i.bindings.filter((b) => b.used).map((b) => `${i.module}\0${b.local}`)) : []);
  const splices: Splice[] = [];
  const removed: string[] = [];
  for (const fact of importsOf(file, after)) {
    if (fact.kind === 'package' || fact.kind === 'wildcard' || fact.kind === 'pub_use') continue;
    const drop = fact.bindings.filter(
      (b) => b.local !== '*' && ((!b.used && was.has(`${fact.module}\0${b.local}`)) || gone.some((g) => (g.module === fact.module || b.imported.endsWith(`.${g.name}`) || b.imported.endsWith(`::${g.name}`)) && b.imported.split(/[.:]+/).pop() === g.name && !b.used)),
    );
    if (drop.length === 0) continue;
    const keep = fact.bindings.filter((b) => !drop.includes(b));
    removed.push(...drop.map((b) => b.local));
    if (family === 'rust' && keep.length > 0) continue; // a nested use list: only a warning, left for rustfmt/clippy
    const text = family === 'go' || family === 'java' || family === 'rust' ? undefined : regenerate(family, fact, keep);
    if (text === undefined) {
      if (family === 'ecma' && !isTypeScript(file) && fact.module.startsWith('.')) {
        splices.push({ start: fact.start_byte, end: fact.end_byte, text: `import '${fact.module}';` });
        continue;
      }
      const [s, e] = family === 'go' && fact.kind === 'spec' ? lineBytes(after, fact.start_line, fact.end_line) : wholeLines(after, fact.start_byte, fact.end_byte);
      splices.push({ start: s, end: e, text: '' });
    } else splices.push({ start: fact.start_byte, end: fact.end_byte, text });
  }
  let bytes = applySplices(after, splices);
  // Go: an import block left empty, or holding one spec, stays valid; `import ()` is legal too.
  // (gofmt never leaves two blank lines in a row: a removed import's gap is closed.)
  if (family === 'go' && removed.length > 0) bytes = Buffer.from(bytes.toString('utf8').replace(/\nimport \(\s*\)\n/, '\n').replace(/\n{3,}/g, '\n\n'), 'utf8');
  return { bytes, removed };
}
