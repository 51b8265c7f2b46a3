/**
 * Making source cheaper to read: `compressBodies` stubs the bodies of functions and methods down
 * to their signatures (docs and fields stay), `salientLines` keeps the lines that say the most
 * when a symbol must fit a line budget.
 */
import { RegexMatcher, type NodeJson } from '../engine/engine';

/** A callable span inside the shown lines, to be replaced by its signature. */
interface Stub {
  start: number;
  end: number;
  signature: string;
}

/** How the body of a stubbed callable is written, per language family. */
function stubOf(signature: string, indent: string, language: string | undefined): string[] {
  if (language === 'python') return [`${indent}${signature.replace(/:\s*$/, '')}:`, `${indent}    ...`];
  return [`${indent}${signature} { … }`];
}

/**
 * Lines `from..=to` (1-based) of `lines` with every outermost function/method of `symbols` that
 * lies inside them replaced by its signature and a stub body. Docs, fields and the enclosing
 * declaration's own lines are kept. A callable with no recorded signature is left as it is.
 */
export function compressBodies(lines: readonly string[], from: number, to: number, symbols: readonly NodeJson[]): string[] {
  const callables = symbols
    .filter((n) => (n.kind === 'function' || n.kind === 'method') && n.signature && n.start_line >= from && n.end_line <= to)
    .sort((a, b) => a.start_line - b.start_line || b.end_line - a.end_line);
  const stubs: (Stub & { language: string | undefined })[] = [];
  for (const n of callables) {
    const last = stubs[stubs.length - 1];
    if (last && n.start_line <= last.end) continue; // nested in a stubbed callable
    // A one-line callable costs nothing to keep whole.
    if (n.end_line === n.start_line) continue;
    stubs.push({ start: n.start_line, end: n.end_line, signature: n.signature!, language: n.language });
  }
  const out: string[] = [];
  let line = from;
  for (const stub of stubs) {
    for (; line < stub.start; line++) out.push(lines[line - 1] ?? '');
    const indent = /^\s*/.exec(lines[stub.start - 1] ?? '')![0];
    out.push(...stubOf(stub.signature, indent, stub.language));
    line = stub.end + 1;
  }
  for (; line <= to; line++) out.push(lines[line - 1] ?? '');
  return out;
}

/** How much a line tells a reader skimming a symbol (higher is kept first). */
function salience(text: string): number {
  const t = text.trim();
  if (t === '') return 0;
  if (/\b(return|throw|raise|yield|panic!?|await)\b/.test(t)) return 4;
  if (/\b(if|else|for|while|switch|match|case|catch|except|try)\b/.test(t)) return 3;
  if (/[A-Za-z_$][\w$]*\s*\(/.test(t)) return 2;
  if (/^(\/\/|#|\*|\/\*)/.test(t)) return 1;
  return 1;
}

/**
 * At most `max` lines of `lines`: the first and the last always, then the most salient (returns,
 * throws, branches, calls) in their original order, with a `… N lines omitted …` marker for each
 * gap. Returns the lines unchanged when they fit.
 */
export function salientLines(lines: readonly string[], max: number): { lines: string[]; omitted: number } {
  if (lines.length <= max) return { lines: [...lines], omitted: 0 };
  // Markers take room too: budget the kept lines so kept + markers ≤ max.
  const keep = new Set<number>([0, lines.length - 1]);
  const ranked = lines
    .map((text, i) => ({ i, s: salience(text) }))
    .filter(({ i }) => i !== 0 && i !== lines.length - 1)
    .sort((a, b) => b.s - a.s || a.i - b.i);
  const render = (): string[] => {
    const out: string[] = [];
    let prev = -1;
    for (const i of [...keep].sort((a, b) => a - b)) {
      if (i > prev + 1) out.push(`${/^\s*/.exec(lines[i] ?? '')![0]}… ${i - prev - 1} lines omitted …`);
      out.push(lines[i]!);
      prev = i;
    }
    return out;
  };
  for (const { i } of ranked) {
    keep.add(i);
    // A line that needs a new gap marker may not fit where a neighbour of a kept line still does.
    if (render().length > max) keep.delete(i);
  }
  return { lines: render(), omitted: lines.length - keep.size };
}

/** How much of a file's source a response carries. */
export type Fidelity = 'full' | 'compress' | 'omit';

/** One `glob:tier` rule of a `fidelity_globs` spec. */
export interface FidelityRule {
  glob: string;
  tier: Fidelity;
  /** The glob compiled by the addon's linear-time regex engine (see `globToRegex`). */
  pattern: RegexMatcher;
}

/** Most rules one `fidelity_globs` spec may hold. */
export const MAX_FIDELITY_RULES = 64;

/**
 * A glob as a regular expression (Rust `regex` syntax) over repository-relative paths; a glob
 * without `/` matches base names anywhere. It runs on the addon's linear-time engine, never as a
 * JavaScript `RegExp`: the `[^/]*` runs of a glob like `*a*a*a*a*a*a*a*a*b` backtrack for
 * minutes on a long file name.
 */
export function globToRegex(glob: string): string {
  let re = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === '*' && glob[i + 1] === '*') {
      const slash = glob[i + 2] === '/';
      re += slash ? '(?:.*/)?' : '.*';
      i += slash ? 2 : 1;
    } else if (c === '*') re += '[^/]*';
    else if (c === '?') re += '[^/]';
    else re += c.replace(/[.+^${}()|[\]\\#&~-]/g, '\\$&');
  }
  return glob.includes('/') ? `^${re}$` : `(?:^|/)${re}$`;
}

/** Parses `"src/**:full,*_test.go:omit,vendor/**:compress"`; the first matching rule wins. */
export function parseFidelityGlobs(spec: string): FidelityRule[] {
  const rules: FidelityRule[] = [];
  for (const part of spec.split(',').map((p) => p.trim()).filter(Boolean)) {
    const at = part.lastIndexOf(':');
    const glob = at > 0 ? part.slice(0, at).trim() : '';
    const tier = at > 0 ? part.slice(at + 1).trim() : '';
    if (glob === '' || !['full', 'compress', 'omit'].includes(tier)) {
      throw new Error(`fidelity_globs entry ${JSON.stringify(part)} must be glob:tier with tier full, compress or omit`);
    }
    if (rules.length === MAX_FIDELITY_RULES) throw new Error(`fidelity_globs holds more than ${MAX_FIDELITY_RULES} entries; merge them with ** or fewer tiers`);
    let pattern: RegexMatcher;
    try {
      pattern = new RegexMatcher(globToRegex(glob));
    } catch (error) {
      throw new Error(`fidelity_globs entry ${JSON.stringify(part)} cannot be matched: ${(error as Error).message}`);
    }
    rules.push({ glob, tier: tier as Fidelity, pattern });
  }
  if (rules.length === 0) throw new Error('fidelity_globs is empty; pass entries like src/**:full,*_test.go:omit');
  return rules;
}

/** The tier of a path under `rules` (`fallback` when none matches). */
export function fidelityOf(rules: readonly FidelityRule[], path: string, fallback: Fidelity): Fidelity {
  return rules.find((r) => r.pattern.test(path))?.tier ?? fallback;
}
