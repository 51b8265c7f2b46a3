/**
 * Call-edge accuracy against compiler truth: gold call edges read from a SCIP index (made by the
 * real TypeScript compiler, pyright or Go's type checker), the graph's `calls`/`instantiates` edges read from a dump,
 * both keyed by file and qualified name, scored per tier, callee kind and same-/cross-file.
 */
import { isAbsolute } from 'node:path';
import type { GraphDump } from '../engine/types';
import { CALL_TIERS, isExternalId } from './parity';
import { parseScipSymbol, ROLE_DEFINITION, ROLE_IMPORT, type ScipDescriptor, type ScipDocument, type ScipIndex } from './scip';

/** What is called: a free function, a method, or a class (through `new X()`, `X()`, a constructor). */
export type CalleeKind = 'function' | 'method' | 'constructor';
/** The callee kinds in report order. */
export const CALLEE_KINDS: readonly CalleeKind[] = ['function', 'method', 'constructor'];

/** One call edge, keyed by both ends: `path::Qualified.name`. */
export interface CallEdge {
  caller: string;
  callee: string;
  kind: CalleeKind;
}

/** The gold of one corpus: its call edges and every definition that can take part in one. */
export interface Gold {
  edges: Map<string, CallEdge>;
  /** Edge keys to another declaration of a merged name, mapped to the edge they stand for. */
  aliases: Map<string, string>;
  /** Method key → keys of the methods it implements or overrides (the indexer's `is_implementation`). */
  implementations: Map<string, Set<string>>;
  /** Keys of every function or method with a body the gold read call sites in (the callers it can judge). */
  callers: Set<string>;
  /** Keys of every definition a call can reach: functions, methods, function-valued properties and constants, classes. */
  callees: Set<string>;
  /** Call sites that became no edge because they sit outside any function body (module or class scope). */
  outsideBodies: number;
  /**
   * Call sites the gold cannot judge, as `caller -> written name`: the indexer resolved them to a
   * definition of another name (scip-python takes `models.BooleanField(…)` for `DateTimeField`),
   * and the written name is no import alias of it. A graph edge from that caller to a callee of
   * that name is left unjudged rather than counted wrong.
   */
  misattributed: Set<string>;
}

/** The key of an edge. */
export const edgeKey = (caller: string, callee: string): string => `${caller} -> ${callee}`;

type Range4 = [number, number, number, number];

/** A definition the gold knows: its key, what it is, and the key a call of it is recorded under. */
interface Definition {
  key: string;
  suffix: ScipDescriptor['suffix'];
  /** The key a call of it is recorded under: its own, or its class's for a constructor. */
  calleeKey: string;
  kind: CalleeKind;
}

const CONSTRUCTOR_NAMES = new Set(['<constructor>', 'constructor', '__init__', '<init>']);

const isJava = (path: string): boolean => path.endsWith('.java');

const SOURCE_FILE = /\.(?:[cm]?[jt]sx?|py|go|java)$/;

/**
 * The descriptors below the file: SCIP symbols start with namespaces for the file's place
 * (`src/`, `` `parser.ts`/ `` from scip-typescript; one dotted module from scip-python; the
 * package from scip-go; every package segment in Java's SemanticDB), and code namespaces
 * (TypeScript's `namespace ts`) follow as more namespaces, which stay.
 */
function belowFile(descriptors: readonly ScipDescriptor[], java: boolean): ScipDescriptor[] {
  if (java) {
    let first = 0;
    while (descriptors[first]?.suffix === 'namespace') first++;
    return descriptors.slice(first);
  }
  let file = -1;
  for (let i = 0; i < descriptors.length && descriptors[i]!.suffix === 'namespace'; i++) if (SOURCE_FILE.test(descriptors[i]!.name)) file = i;
  if (file < 0 && descriptors[0]?.suffix === 'namespace') file = 0;
  return descriptors.slice(file + 1);
}

/**
 * The qualified name a definition is keyed by (the file's own namespaces left out), constructors
 * named as the graph names them (`constructor`; in Java the class's own name); null for
 * parameters and type parameters.
 */
function qualifiedName(descriptors: readonly ScipDescriptor[]): string | null {
  const parts: string[] = [];
  for (const d of descriptors) {
    if (d.suffix === 'meta' || d.suffix === 'macro') continue;
    if (d.suffix === 'parameter' || d.suffix === 'type_parameter') return null;
    parts.push(d.name === '<constructor>' ? 'constructor' : d.name === '<init>' ? (parts[parts.length - 1] ?? d.name) : d.name);
  }
  return parts.length > 0 ? parts.join('.') : null;
}

/** A definition of a class, method, function or property/constant; null for what no call can name. */
function definitionOf(path: string, symbol: string): Definition | null {
  const parsed = parseScipSymbol(symbol);
  if (!parsed) return null;
  const own = belowFile(parsed.descriptors, isJava(path));
  const qual = qualifiedName(own);
  if (!qual) return null;
  const named = own.filter((d) => d.suffix !== 'meta');
  const last = named[named.length - 1]!;
  if (last.suffix !== 'type' && last.suffix !== 'method' && last.suffix !== 'term') return null;
  const key = `${path}::${qual}`;
  if (last.suffix === 'type') return { key, suffix: last.suffix, calleeKey: key, kind: 'constructor' };
  const member = named[named.length - 2]?.suffix === 'type';
  if (member && CONSTRUCTOR_NAMES.has(last.name)) {
    return { key, suffix: last.suffix, calleeKey: `${path}::${qualifiedName(named.slice(0, -1))}`, kind: 'constructor' };
  }
  return { key, suffix: last.suffix, calleeKey: key, kind: member ? 'method' : 'function' };
}

/**
 * The column after a name at (line, col) and what follows it — optionally `?.`, `!` and type
 * arguments (`<…>`, or Go's `[…]` when `brackets`) — skipped; null when type arguments do not
 * close on the line.
 */
function afterName(s: string, col: number, brackets: boolean): number | null {
  let c = col;
  const skip = (): void => {
    while (c < s.length && (s[c] === ' ' || s[c] === '\t' || s[c] === '\r')) c++;
  };
  skip();
  if (s[c] === '!') c++;
  if (s[c] === '?' && s[c + 1] === '.') c += 2;
  skip();
  const open = brackets ? '[' : '<';
  const close = brackets ? ']' : '>';
  if (s[c] === open) {
    // Type arguments: skip to the matching close on the same line (nested generics counted).
    let depth = 0;
    for (; c < s.length; c++) {
      if (s[c] === open) depth++;
      else if (s[c] === close && --depth === 0) break;
      else if (s[c] === ';' || s[c] === '{' || s[c] === '}' || s[c] === '=') return null;
    }
    if (depth !== 0) return null;
    c++;
    skip();
  }
  return c;
}

/**
 * True when `text` at (line, col) continues with a call: `(`, optionally after `?.`, `!` or type
 * arguments (`<…>`; Go's `[…]` when `brackets`).
 */
export function followedByCall(lines: readonly string[], line: number, col: number, brackets = false): boolean {
  const s = lines[line];
  if (s === undefined) return false;
  const c = afterName(s, col, brackets);
  return c !== null && s[c] === '(';
}

/**
 * True when the name ending at (line, col) heads a method declaration rather than a call: it
 * starts its line (after modifiers such as `get`, `async`, `private`) and its parameter list is
 * followed by a body (`{`, optionally after a return type). scip-typescript records an object
 * literal's or class's method as a reference to the interface member it implements.
 */
export function declaresMethod(lines: readonly string[], line: number, start: number, col: number): boolean {
  const head = lines[line]?.slice(0, start) ?? '';
  if (!/^\s*(?:(?:public|private|protected|static|readonly|override|abstract|async|get|set|declare)\s+)*\*?\s*$/.test(head)) return false;
  const s = lines[line]!;
  const open = afterName(s, col, false);
  if (open === null || s[open] !== '(') return false;
  // The parameter list may span lines: find its closing parenthesis.
  let depth = 0;
  for (let l = line, c = open; l < lines.length && l < line + 40; l++, c = 0) {
    const text = lines[l]!;
    for (; c < text.length; c++) {
      if (text[c] === '(') depth++;
      else if (text[c] === ')' && --depth === 0) return /^\s*(?::[^;=]*)?\{/.test(text.slice(c + 1));
    }
  }
  return false;
}

/**
 * True when a Go type name at `range` is constructed: a composite literal `T{…}` or `T[A]{…}` (not
 * an element type, `[]T{…}` or `map[K]T{…}`, nor a result type before a body, `func f() T {`), or
 * `new(T)`. `T(x)` is a conversion, no call.
 */
export function goConstructs(lines: readonly string[], range: Range4): boolean {
  const s = lines[range[2]];
  if (s === undefined) return false;
  const c = afterName(s, range[3], true);
  if (c !== null && s[c] === '{') {
    const before = lines[range[0]]!.slice(0, range[1]).replace(/[\w.]*$/, '').trimEnd();
    return !before.endsWith(']') && !before.endsWith(')');
  }
  return /\bnew\(\s*[\w.]*$/.test(lines[range[0]]!.slice(0, range[1])) && s.slice(range[3]).trimStart().startsWith(')');
}

/** Go's SCIP documents (scip-go): types are called only by literal or `new`, and generic arguments come in brackets. */
const isGo = (path: string): boolean => path.endsWith('.go');
const isEcmascript = (path: string): boolean => /\.[cm]?[jt]sx?$/.test(path);

const contains = (outer: Range4, line: number, col: number): boolean =>
  (line > outer[0] || (line === outer[0] && col >= outer[1])) && (line < outer[2] || (line === outer[2] && col <= outer[3]));

/** Where the gold reads its text and, for bodies the indexer gives no extent, their lines. */
export interface GoldSources {
  /** A document's text (null when it cannot be read: its call sites are then left out). */
  sourceOf(relativePath: string): string | null;
  /**
   * The 0-based first and last line of the definition `key` whose span holds `line` (its name),
   * for indexers that record no body extent (scip-typescript for getters and function-valued
   * properties; scip-go and SemanticDB for all); null when unknown.
   */
  extentOf?(key: string, line: number): [number, number] | null;
}

/** Declaration files declare and do not define: calls into them are left out on both sides. */
export const isDeclarationFile = (path: string): boolean => /\.d\.[cm]?ts$/.test(path);

type Body = { range: Range4; key: string; symbol: string; constructs?: string };

/** The innermost body holding a position: the one that starts last among those containing it. */
function innermost(bodies: readonly Body[], line: number, col: number): Body | undefined {
  let best: Body | undefined;
  for (const body of bodies) {
    if (!contains(body.range, line, col)) continue;
    if (!best || body.range[0] > best.range[0] || (body.range[0] === best.range[0] && body.range[1] >= best.range[1])) best = body;
  }
  return best;
}

/**
 * Adds the names a file binds by an import or export alias (`import { a as b }`, `from m import (a
 * as b)`, `export { a as b }`, `import x = a.b`), read from import statements only: elsewhere `as`
 * is a type assertion or prose.
 */
function aliasesOf(lines: readonly string[], names: Set<string>): void {
  let open = false;
  for (const line of lines) {
    const statement = /^\s*(?:import|export|from)\b/.test(line);
    if (!open && !statement) continue;
    for (const m of line.matchAll(/\bas\s+([A-Za-z_$][\w$]*)/g)) names.add(m[1]!);
    const equals = /^\s*(?:export\s+)?import\s+([A-Za-z_$][\w$]*)\s*=/.exec(line);
    if (equals) names.add(equals[1]!);
    // A braced or parenthesised name list may run over several lines.
    if (open) open = !/[)}]/.test(line);
    else open = /[({][^)}]*$/.test(line);
  }
}

/** The last segment of a key's qualified name: what a call of it writes. */
const simpleName = (key: string): string => key.slice(key.lastIndexOf('::') + 2).split('.').pop()!;

/**
 * The name written at `range` when it is not the one `def` is called by (its own name, or its
 * class's for a constructor) and no file binds it by an alias — the indexer resolved the site to
 * the wrong definition — else null. Default imports and re-bindings keep their own local symbol
 * in SCIP, so a call through them never names the original here.
 */
function misnamed(lines: readonly string[], range: Range4, def: Definition, aliased: Set<string>): string | null {
  if (range[0] !== range[2]) return null;
  const written = lines[range[0]]?.slice(range[1], range[3]);
  if (!written || !/^[A-Za-z_$][\w$]*$/.test(written)) return null;
  if (written === simpleName(def.calleeKey) || CONSTRUCTOR_NAMES.has(written) || written === 'super' || written === 'this') return null;
  return aliased.has(written) ? null : written;
}

/**
 * The bodies that are not inside another body. A function defined inside another is local to it
 * (scip-typescript gives it a local symbol; scip-python a global one named as if it were not
 * nested): its calls count for the function around it and calls of it are left out, the same on
 * every indexer.
 */
function withoutNested(own: Body[], definitions: Map<string, Definition>, callees: Set<string>): Body[] {
  const sorted = [...own].sort((a, b) => a.range[0] - b.range[0] || a.range[1] - b.range[1] || b.range[2] - a.range[2] || b.range[3] - a.range[3]);
  const open: Body[] = [];
  const kept: Body[] = [];
  for (const body of sorted) {
    while (open.length > 0 && !contains(open[open.length - 1]!.range, body.range[0], body.range[1])) open.pop();
    if (open.length === 0) kept.push(body);
    else {
      definitions.delete(body.symbol);
      callees.delete(body.key);
    }
    open.push(body);
  }
  return kept;
}

/**
 * The gold call edges of a SCIP index. A call edge is a reference (not a definition or import) to
 * a class, method, function or function-valued property/constant defined in the index (outside
 * declaration files), followed by a call, inside the body of a function or method; its caller is
 * the innermost such body. Calls inside nested local functions count for the named function
 * around them (locals have no global name); a call of a constructor is recorded as a call of its
 * class, and `super(…)` in a constructor as a call of the class it extends. Where one name binds
 * several merged declarations (TypeScript namespaces and interfaces), the call is one edge that any
 * of them satisfies. In Go a type is "called" by a composite literal or `new(T)` (`T(x)` converts).
 */
export function goldFromScip(index: ScipIndex, sources: GoldSources): Gold {
  // scip-go also lists cgo's generated files, by paths into the build cache outside the root.
  const documents = index.documents.filter((doc) => !isDeclarationFile(doc.relativePath) && !doc.relativePath.startsWith('../') && !isAbsolute(doc.relativePath));
  const definitions = new Map<string, Definition>();
  const callers = new Set<string>();
  const callees = new Set<string>();
  const bodies = new Map<ScipDocument, Body[]>();
  const texts = new Map<ScipDocument, string[]>();
  // The symbol each class extends, read from its header (`class A extends B`), for `super(…)`.
  const baseSymbol = new Map<string, string>();
  for (const doc of documents) {
    const text = sources.sourceOf(doc.relativePath);
    const lines = text === null ? null : text.split('\n');
    if (lines) texts.set(doc, lines);
    const own: Body[] = [];
    for (const occ of doc.occurrences) {
      if ((occ.roles & ROLE_DEFINITION) === 0 || occ.symbol.startsWith('local ')) continue;
      const def = definitions.get(occ.symbol) ?? definitionOf(doc.relativePath, occ.symbol);
      if (!def) continue;
      definitions.set(occ.symbol, def);
      callees.add(def.calleeKey);
      if (def.suffix === 'type') {
        const header = lines?.[occ.range[2]]?.slice(occ.range[3]);
        const extended = header ? /^\s*(?:<[^{]*?>)?\s*extends\s+[\w$.]+/.exec(header) : null;
        if (extended) {
          const end = occ.range[3] + extended[0].length;
          const base = doc.occurrences.find((o) => o.range[0] === occ.range[2] && o.range[3] === end && (o.roles & ROLE_DEFINITION) === 0);
          if (base) baseSymbol.set(def.key, base.symbol);
        }
        continue;
      }
      let range = occ.enclosing;
      if (!range && sources.extentOf) {
        const extent = sources.extentOf(def.key, occ.range[0]);
        if (extent) range = [extent[0], 0, extent[1], Number.MAX_SAFE_INTEGER];
      }
      if (!range) continue;
      own.push({ range, key: def.key, symbol: occ.symbol, ...(def.kind === 'constructor' && def.suffix === 'method' ? { constructs: def.calleeKey } : {}) });
    }
    bodies.set(doc, withoutNested(own, definitions, callees));
  }
  for (const own of bodies.values()) for (const body of own) callers.add(body.key);
  const implementations = new Map<string, Set<string>>();
  for (const doc of documents) {
    for (const info of doc.symbols) {
      const impl = info.implements.length > 0 ? definitions.get(info.symbol) : undefined;
      if (!impl || impl.kind !== 'method') continue;
      for (const target of info.implements) {
        const declared = definitions.get(target);
        if (!declared || declared.kind !== 'method') continue;
        const set = implementations.get(impl.key) ?? new Set<string>();
        set.add(declared.key);
        implementations.set(impl.key, set);
      }
    }
  }
  // Alias names from every file: a namespace re-exports under a new name (`export import combine =
  // ts.combinePaths`) and callers elsewhere write that name.
  const aliased = new Set<string>();
  for (const lines of texts.values()) aliasesOf(lines, aliased);
  const edges = new Map<string, CallEdge>();
  const aliases = new Map<string, string>();
  let outsideBodies = 0;
  const misattributed = new Set<string>();
  const record = (caller: string, targets: readonly Definition[]): void => {
    const sorted = [...new Map(targets.map((t) => [t.calleeKey, t])).values()].sort((a, b) => a.calleeKey.localeCompare(b.calleeKey));
    const canonical = edgeKey(caller, sorted[0]!.calleeKey);
    edges.set(canonical, { caller, callee: sorted[0]!.calleeKey, kind: sorted[0]!.kind });
    for (const alt of sorted.slice(1)) aliases.set(edgeKey(caller, alt.calleeKey), canonical);
  };
  for (const doc of documents) {
    const lines = texts.get(doc);
    if (!lines) continue;
    const own = bodies.get(doc)!;
    // A name that declares something is no call of what else it refers to: an object literal's
    // method or a class's method refers to the interface member it implements (`get
    // createNull() {` in a `NodeFactory` literal).
    const declaring = new Set<string>();
    for (const occ of doc.occurrences) if ((occ.roles & ROLE_DEFINITION) !== 0) declaring.add(occ.range.join(','));
    // Occurrences at one range are one site: merged declarations give several symbols there.
    const sites = new Map<string, { line: number; col: number; targets: Definition[] }>();
    for (const occ of doc.occurrences) {
      if ((occ.roles & (ROLE_DEFINITION | ROLE_IMPORT)) !== 0 || declaring.has(occ.range.join(','))) continue;
      const def = definitions.get(occ.symbol);
      if (!def) continue;
      if (isEcmascript(doc.relativePath) && declaresMethod(lines, occ.range[2], occ.range[1], occ.range[3])) continue;
      const called = !isGo(doc.relativePath)
        ? followedByCall(lines, occ.range[2], occ.range[3])
        : def.suffix === 'type'
          ? goConstructs(lines, occ.range)
          : followedByCall(lines, occ.range[2], occ.range[3], def.suffix === 'method');
      if (!called) continue;
      const written = misnamed(lines, occ.range, def, aliased);
      if (written !== null) {
        const caller = innermost(own, occ.range[0], occ.range[1]);
        if (caller) misattributed.add(`${caller.key} -> ${written}`);
        continue;
      }
      const at = occ.range.join(',');
      const site = sites.get(at) ?? { line: occ.range[0], col: occ.range[1], targets: [] };
      site.targets.push(def);
      sites.set(at, site);
    }
    for (const site of sites.values()) {
      const caller = innermost(own, site.line, site.col);
      if (caller) record(caller.key, site.targets);
      else outsideBodies++;
    }
    // `super(…)` inside a constructor calls the constructor of the class it extends.
    for (const body of own) {
      if (!body.constructs) continue;
      const base = baseSymbol.get(body.constructs);
      const target = base === undefined ? undefined : definitions.get(base);
      if (!target) continue;
      for (let line = body.range[0]; line <= body.range[2] && line < lines.length; line++) {
        const match = /\bsuper\s*\(/.exec(lines[line]!);
        if (match && innermost(own, line, match.index) === body) {
          record(body.key, [target]);
          break;
        }
      }
    }
  }
  return { edges, aliases, implementations, callers, callees, outsideBodies, misattributed };
}

/** One of the graph's call edges, with its best origin when several bind the same pair. */
export interface GraphCallEdge extends CallEdge {
  origin: string;
}

const TIER_RANK = new Map<string, number>(CALL_TIERS.map((tier, i) => [tier, i]));
const rank = (origin: string): number => TIER_RANK.get(origin) ?? CALL_TIERS.length;

const CALLER_KINDS = new Set(['function', 'method']);
const CLASS_KINDS = new Set(['type', 'class', 'interface', 'struct']);

/**
 * A graph node's key as the gold keys definitions: `path::Qualified.name`, without the `_L<line>`
 * the graph adds where a qualified name repeats in a file (overloads, redefinitions: the gold
 * keeps one name for all of them); null for a node without a qualified part.
 */
export function nodeKey(n: { id: string; file_path: string }): string | null {
  const at = n.id.indexOf('::');
  return at < 0 ? null : `${n.file_path}::${n.id.slice(at + 2).replace(/_L\d+(?:_\d+)?(?=\.|$)/g, '')}`;
}

/** The graph's function and method bodies as `extentOf` reads them: 0-based lines, by key and a line the definition holds. */
export function bodyExtents(dump: GraphDump): (key: string, line: number) => [number, number] | null {
  const spans = new Map<string, [number, number][]>();
  for (const n of dump.nodes) {
    const key = nodeKey(n);
    // Bodies only: a field's or variable's span is no function body to find callers in.
    if (key === null || (n.kind !== 'function' && n.kind !== 'method')) continue;
    const list = spans.get(key) ?? [];
    list.push([n.start_line - 1, n.end_line - 1]);
    spans.set(key, list);
  }
  // Only an extent that holds the definition's own name is the same definition.
  return (key, line) => spans.get(key)?.find(([start, end]) => start <= line && line <= end) ?? null;
}

/** The graph's call edges from function and method bodies to repository symbols (`calls`, and `instantiates` as constructor calls), keyed like the gold. */
export function graphCallEdges(dump: GraphDump): Map<string, GraphCallEdge> {
  const nodes = new Map<string, { key: string; kind: string; name: string }>();
  for (const n of dump.nodes) {
    const key = nodeKey(n);
    // Stubs of what lies outside the repository are no definitions the gold can hold.
    if (key === null || isExternalId(n.id)) continue;
    nodes.set(n.id, { key, kind: n.kind, name: n.name });
  }
  const out = new Map<string, GraphCallEdge>();
  for (const e of dump.edges) {
    // A synthesized framework dispatch (a route's handler, a pytest fixture) has no call
    // expression: the call-site gold cannot judge it.
    if ((e.kind !== 'calls' && e.kind !== 'instantiates') || e.via !== undefined) continue;
    const from = nodes.get(e.from);
    const to = nodes.get(e.to);
    if (!from || !to || !CALLER_KINDS.has(from.kind)) continue;
    let callee = to.key;
    let kind: CalleeKind;
    if (CLASS_KINDS.has(to.kind)) kind = 'constructor';
    else if (to.kind === 'method' && (CONSTRUCTOR_NAMES.has(to.name) || (isJava(pathOf(to.key)) && `.${to.key.slice(to.key.indexOf('::') + 2)}`.endsWith(`.${to.name}.${to.name}`)))) {
      // A Java constructor is the method named as its class.
      kind = 'constructor';
      callee = callee.slice(0, callee.length - to.name.length - 1);
    } else kind = to.kind === 'method' ? 'method' : 'function';
    const key = edgeKey(from.key, callee);
    const seen = out.get(key);
    if (!seen || rank(e.origin) < rank(seen.origin)) out.set(key, { caller: from.key, callee, kind, origin: e.origin });
  }
  return out;
}

/** Precision, recall and F1 of one slice. */
export interface Score {
  gold: number;
  /** The graph's edges in this slice that the gold can judge (both ends are definitions it knows). */
  judged: number;
  hits: number;
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

function score(gold: number, judged: number, hits: number): Score {
  const precision = judged === 0 ? null : hits / judged;
  const recall = gold === 0 ? null : hits / gold;
  const f1 = precision === null || recall === null || precision + recall === 0 ? null : (2 * precision * recall) / (precision + recall);
  return { gold, judged, hits, precision, recall, f1 };
}

/** A missed or wrong edge with why, for the classified sample. */
export interface EdgeSample {
  caller: string;
  callee: string;
  kind: CalleeKind;
  origin?: string;
  why: string;
}

/** The scores of one corpus. */
export interface EdgeReport {
  /** Every judged graph edge against every gold edge. */
  all: Score;
  /** Edges at this tier or better (cumulative): what an agent filtering by `min_tier` sees. */
  at_or_above: Record<string, Score>;
  /** Edges of exactly this tier: how many, how many judged, how many right. */
  by_tier: Record<string, { edges: number; judged: number; hits: number; precision: number | null }>;
  by_kind: Record<CalleeKind, Score>;
  same_file: Score;
  cross_file: Score;
  /**
   * Graph edges the gold cannot judge: the caller or callee is not a definition in the SCIP index,
   * or the indexer resolved that call site to a definition of another name.
   */
  unjudged: { caller_unknown: number; callee_unknown: number; misattributed: number };
  /** Why gold edges were missed: a node the graph lacks, or no edge between nodes it has. */
  misses: { caller_node_missing: number; callee_node_missing: number; no_edge: number };
  gold_outside_bodies: number;
  /** Gold call sites (caller and written name) left out as resolved by the indexer to a definition of another name. */
  gold_misattributed: number;
  /** Up to `sampleSize` misses and wrong edges, for reading. */
  sample: { missed: EdgeSample[]; wrong: EdgeSample[] };
}

const pathOf = (key: string): string => key.slice(0, key.indexOf('::'));

/** Up to `n` items spread evenly over a list sorted by caller, so a sample is stable and not all from one file. */
function spread<T extends CallEdge>(items: T[], n: number): T[] {
  const sorted = [...items].sort((a, b) => (a.caller === b.caller ? a.callee.localeCompare(b.callee) : a.caller.localeCompare(b.caller)));
  if (sorted.length <= n) return sorted;
  const step = sorted.length / n;
  return Array.from({ length: n }, (_, i) => sorted[Math.floor(i * step)]!);
}

/**
 * The caller a graph edge is judged under: its own key when the gold knows it, else the nearest
 * enclosing named function the gold knows (the graph names nested functions; SCIP keeps them
 * local, so their calls count for the function around them); null when neither is known.
 */
function judgedCaller(caller: string, gold: Gold): string | null {
  let key = caller;
  const head = key.indexOf('::') + 2;
  for (;;) {
    if (gold.callers.has(key)) return key;
    const dot = key.lastIndexOf('.');
    if (dot < head) return null;
    key = key.slice(0, dot);
  }
}

/** Every method `method` implements or overrides, transitively. */
function implementedBy(gold: Gold, method: string): string[] {
  const seen = new Set<string>();
  const todo = [method];
  while (todo.length > 0) {
    for (const next of gold.implementations.get(todo.pop()!) ?? []) {
      if (seen.has(next)) continue;
      seen.add(next);
      todo.push(next);
    }
  }
  return [...seen];
}

/** Scores the graph's edges against the gold. */
export function scoreEdges(gold: Gold, graph: Map<string, GraphCallEdge>, graphKeys: Set<string>, sampleSize = 12): EdgeReport {
  const unjudged = { caller_unknown: 0, callee_unknown: 0, misattributed: 0 };
  const by_tier: EdgeReport['by_tier'] = {};
  // Judged edges keyed as the gold keys them (nested callers lifted, merged declarations and
  // dispatch resolved), the best origin kept per key.
  const judged = new Map<string, GraphCallEdge>();
  for (const edge of graph.values()) {
    const tier = (by_tier[edge.origin] ??= { edges: 0, judged: 0, hits: 0, precision: null });
    tier.edges++;
    const caller = judgedCaller(edge.caller, gold);
    if (caller === null) {
      unjudged.caller_unknown++;
      continue;
    }
    if (!gold.callees.has(edge.callee)) {
      unjudged.callee_unknown++;
      continue;
    }
    const canonical = gold.aliases.get(edgeKey(caller, edge.callee));
    let callee = canonical === undefined ? edge.callee : gold.edges.get(canonical)!.callee;
    if (edge.origin === 'lsp_dispatch' && !gold.edges.has(edgeKey(caller, callee))) {
      // A dispatch edge names an implementation of what the code calls: right when the gold's
      // call is to a method the callee implements or overrides (at any depth).
      callee = implementedBy(gold, callee).find((declared) => gold.edges.has(edgeKey(caller, declared))) ?? callee;
    }
    const key = edgeKey(caller, callee);
    if (!gold.edges.has(key) && gold.misattributed.has(edgeKey(caller, simpleName(callee)))) {
      unjudged.misattributed++;
      continue;
    }
    tier.judged++;
    if (gold.edges.has(key)) tier.hits++;
    const seen = judged.get(key);
    if (!seen || rank(edge.origin) < rank(seen.origin)) judged.set(key, { ...edge, caller, callee });
  }
  const judgedEdges = [...judged.values()];
  for (const tier of Object.values(by_tier)) tier.precision = tier.judged === 0 ? null : tier.hits / tier.judged;

  const slice = (inGold: (e: CallEdge) => boolean, inGraph: (e: GraphCallEdge) => boolean): Score => {
    let goldCount = 0;
    for (const e of gold.edges.values()) if (inGold(e)) goldCount++;
    let judged = 0;
    let hits = 0;
    for (const e of judgedEdges) {
      if (!inGraph(e)) continue;
      judged++;
      const g = gold.edges.get(edgeKey(e.caller, e.callee));
      if (g && inGold(g)) hits++;
    }
    return score(goldCount, judged, hits);
  };
  const always = (): boolean => true;
  const at_or_above: Record<string, Score> = {};
  const present = CALL_TIERS.filter((t) => by_tier[t]);
  for (const tier of present) at_or_above[tier] = slice(always, (e) => rank(e.origin) <= rank(tier));
  const by_kind = Object.fromEntries(CALLEE_KINDS.map((k) => [k, slice((e) => e.kind === k, (e) => e.kind === k)])) as Record<CalleeKind, Score>;
  const same = (e: CallEdge): boolean => pathOf(e.caller) === pathOf(e.callee);

  const misses = { caller_node_missing: 0, callee_node_missing: 0, no_edge: 0 };
  const missed: EdgeSample[] = [];
  const goldByCaller = new Map<string, CallEdge[]>();
  for (const [key, e] of gold.edges) {
    const list = goldByCaller.get(e.caller) ?? [];
    list.push(e);
    goldByCaller.set(e.caller, list);
    if (judged.has(key)) continue;
    const why = !graphKeys.has(e.caller) ? 'caller_node_missing' : !graphKeys.has(e.callee) ? 'callee_node_missing' : 'no_edge';
    misses[why]++;
    missed.push({ ...e, why });
  }
  const wrong: EdgeSample[] = [];
  for (const e of judgedEdges) {
    if (gold.edges.has(edgeKey(e.caller, e.callee))) continue;
    // A wrong edge usually stands for a right one with the same member name: say which, when the gold has it.
    const member = e.callee.slice(e.callee.lastIndexOf('.') + 1);
    const meant = (goldByCaller.get(e.caller) ?? []).filter((g) => g.callee.endsWith(`.${member}`) || g.callee.endsWith(`::${member}`));
    wrong.push({ ...e, why: meant.length > 0 ? `gold calls ${meant.map((g) => g.callee).join(', ')}` : 'no such call in gold' });
  }
  return {
    all: slice(always, always),
    at_or_above,
    by_tier,
    by_kind,
    same_file: slice(same, same),
    cross_file: slice((e) => !same(e), (e) => !same(e)),
    unjudged,
    misses,
    gold_outside_bodies: gold.outsideBodies,
    gold_misattributed: gold.misattributed.size,
    sample: { missed: spread(missed, sampleSize), wrong: spread(wrong, sampleSize) },
  };
}

/** Every node key (`path::Qualified.name`) of a dump, with constructors keyed by their class as the gold keys them. */
export function graphNodeKeys(dump: GraphDump): Set<string> {
  const keys = new Set<string>();
  for (const n of dump.nodes) {
    const key = nodeKey(n);
    if (key !== null) keys.add(key);
  }
  return keys;
}
