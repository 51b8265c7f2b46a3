/**
 * `explore`: free task text (a bug report, a feature request, a stack trace) in, the ranked
 * neighbourhood out. The text is read for cues — identifiers, file paths with lines, quoted
 * literals and error messages, plain words — each cue becomes a sub-query, and the ranked lists
 * are fused with weighted reciprocal-rank fusion so a symbol several cues agree on comes first.
 */
import type {
  FindFilesResult,
  NodeSummary,
  SearchSymbolsResult,
  SearchTextResult,
} from '../engine/engine';
import { QueryError } from '../engine/query';
import { BYTES_PER_TOKEN, ContextReader, estimateTokens, lineRange, nodeOfHit, summaryOf } from './context-common';

/** `token_budget` default and bounds (the original's defaults). */
export const EXPLORE_BUDGET = { default: 1600, min: 1000, max: 24000 } as const;
/** `max_symbols` default and ceiling. */
export const EXPLORE_SYMBOLS = { default: 16, max: 30 } as const;
/** Rows that carry their full source. */
const BODIES = 5;
/** Callers and callees named per row. */
const RELATIONS = 5;

/** Rank offset of reciprocal-rank fusion: small, because the fused lists are short and their heads matter. */
const RRF_K = 8;
/** Channel weights: how much one list's first place is worth. */
const W = {
  /** The symbol enclosing a `path:line` of a stack frame (first frame; later frames decay). */
  frame: 3,
  /** An identifier written in code form that names a symbol exactly. */
  identExact: 2.5,
  /** An identifier with no exact match: its ranked (word-by-word) rows. */
  identRanked: 0.6,
  /** An exception type (heading an error message, or named `…Error`): declared elsewhere than the failure. */
  errorType: 1,
  /**
   * A plain word of the text that is exactly a symbol's name: weak, since most such words are
   * just English (`every`, `take`, `count`); measured on `eval recall`'s concept and multi-hop
   * queries through explore (rxjs R@1 15 → 21 %, x-tools 3 → 10 % going from 1 to 0.25).
   */
  wordExact: 0.25,
  /** The whole text as one ranked query. */
  text: 1.5,
  /**
   * A task that names no code, its own words read as a sentence against doc comments (rxjs concept
   * R@5 through explore 69 → 79 %, x/tools held-out 17 → 27 %).
   */
  sentence: 1.5,
  /** The whole text ranked inside a file the text names. */
  pathScoped: 1,
  /** Symbols enclosing a quoted literal or error message found in the code (the code that says it). */
  literal: 3,
  /** A literal found in many places says less. */
  literalCommon: 1,
  /** A caller or callee of a top-ranked symbol (only candidates some cue already found). */
  neighbour: 0.4,
  /**
   * The whole text ranked against function bodies (what the code does, its literals and comments).
   * This and the next three were tuned on the dev split of `eval localize` only: together they
   * took it from file@5 0.66 / fn-all@10 0.29 to 0.73 / 0.46.
   */
  body: 1.5,
  /**
   * Share of a file's evidence (its best candidate's score, plus half of the next two) each of its
   * candidates gains: bugs sit where several cues agree on one file.
   */
  file: 0.3,
  /**
   * A report's title (its first line, when more follow) against bodies: the title says in a few
   * words what is wrong, where the rest dilutes it with logs and pasted code.
   */
  title: 2,
  /**
   * A candidate's file ranked by its whole text against the task (`find_files` `by: content`):
   * files speak through imports and module-level code too.
   */
  fileContent: 1,
  /** A member of a type the text names exactly, at its whole-text rank (the bug is often in a method). */
  member: 1.5,
} as const;
/** Each later stack frame is worth this much of the one above it. */
const FRAME_DECAY = 0.7;
/** Score multiplier for test code unless the task talks about tests. */
const TEST_DEMOTION = 0.5;
/** A plain word naming more symbols than this exactly is too common to count. */
const MAX_WORD_MATCHES = 6;
/** Literal hits above which a literal counts as common. */
const COMMON_LITERAL_HITS = 20;
/** Distinct words of the sentence query (the engine accepts 32 terms). */
const MAX_SENTENCE_TERMS = 32;
/** Distinct search terms the whole-text query keeps (the engine accepts 32). */
const MAX_TEXT_TERMS = 28;
/** Longest query the body search accepts, in bytes (a longer task is read from its start). */
const MAX_BODY_QUERY_BYTES = 20000;
/** Rows of the body channel. */
const BODY_ROWS = 40;
/** Files of the file-content ranking that lend their candidates a bonus. */
const CONTENT_FILES = 20;

/** At most this many paths in `more_files`. */
const MORE_FILES = 10;

/** `more_files` is shortened to this many before the first body is cut. */
const MIN_MORE_FILES = 5;

/** Rows kept before the last `more_files` paths are dropped. */
const ROWS_BEFORE_FILES = 8;
/** Longest first line read as a report's title. */
const MAX_TITLE = 300;
/** Cues of each kind examined (a pasted log must not fan out into hundreds of queries). */
const MAX_CUES = 24;

/** Words that carry no code meaning in a task description. */
const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can cannot could did do does doing done for from had has have having how i if in into is it its ' +
    'just me my no not of on or our out over own please same should so some such than that the their them then there these they this ' +
    'those through to too under until up very was we were what when where which while who why will with would you your also after again ' +
    'all any because before below between both during each few further here more most nor once only other off above against am ' +
    'bug issue problem expected actual instead still seems seem get gets got happen happens happened appear appears see sees saw ' +
    'steps reproduce repro version try tried trying work works working broken wrong fix fixed fails fail failing failed ' +
    'example e g eg ie etc thanks hi hello think maybe sometimes always never now way thing things something anything nothing use used using'
  ).split(' '),
);

/** File extensions a path cue may end with. */
const SOURCE_EXT = 'ts|tsx|mts|cts|js|jsx|mjs|cjs|py|go|rs|java|kt|rb|cs|cpp|cc|c|h|hpp|php|swift|scala';
/** `path/to/file.ext` optionally followed by `:line`, `", line N` (Python) or `#LN`. */
const PATH_RE = new RegExp(`((?:[A-Za-z]:)?[\\w.@~\\-/\\\\]*[\\w\\-]\\.(?:${SOURCE_EXT}))(?![\\w])(?:(?::|", line |#L)(\\d+))?`, 'g');
/**
 * A link to a file of a repository on GitHub, GitLab, Bitbucket or Gitea/Forgejo
 * (`…/blob/<ref>/<path>`, `…/-/blob/<ref>/<path>`, `…/src/<ref>/<path>`), with its `#L12` line.
 */
const SOURCE_LINK_RE = new RegExp(`https?://[^\\s/]+/[^\\s/]+/[^\\s/]+/(?:-/)?(?:blob|src|tree)/(?:branch/|commit/)?[^\\s/]+/([^\\s#?)\\]>'"]+\\.(?:${SOURCE_EXT}))(?:[?][^\\s#]*)?(?:#L(\\d+))?`, 'g');
/**
 * Longest line paths are looked for in. `PATH_RE` backtracks over a run of path characters at
 * every start, quadratic in the run: a 20,000-character line held the event loop ≈ 1.7 s. Stack
 * frames and file mentions sit on short lines.
 */
const MAX_PATH_LINE = 2000;
/** An identifier, possibly qualified (`a.b`, `a::b`, `a#b`) and possibly called (`f()`). */
const IDENT_RE = /[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?/g;

/** One piece of evidence taken from the task text. */
interface Cue {
  kind: 'identifier' | 'word' | 'path' | 'literal';
  text: string;
  /** For paths: the line the text points at. */
  line?: number;
  /** For paths with a line: 0 for the first such path (the top stack frame), 1 for the next, … */
  frame?: number;
  /** For stack frames: the function the frame names. */
  name?: string;
  /** For identifiers: the exception type heading an error message. */
  errorType?: boolean;
}

/**
 * The function a stack-frame line names: `at Owner.fn (` (JavaScript, Java), `in fn` (Python),
 * or the line above for Go (`pkg.Fn(…)` over `\tfile.go:12`) and Rust (`3: crate::mod::fn`).
 */
function frameName(line: string, previous: string): { name: string; fromPrevious: boolean } | undefined {
  const clean = (raw: string): string | undefined => {
    const name = raw.replace(/^(?:Object|Module|async|new)\./, '').replace(/\(\*?([\w$]+)\)/g, '$1').replace(/^.*\//, '');
    return /^[A-Za-z_$][\w$]*(?:(?:\.|::)[A-Za-z_$][\w$]*)*$/.test(name) ? name : undefined;
  };
  const js = /\bat\s+(?:async\s+)?(?:new\s+)?([A-Za-z_$][\w$.<>]*)/.exec(line);
  if (js) {
    const name = clean(js[1]!);
    return name ? { name, fromPrevious: false } : undefined;
  }
  const py = /\bin\s+([A-Za-z_]\w*)\s*$/.exec(line);
  if (py) return { name: py[1]!, fromPrevious: false };
  if (/^[\s:+0-9a-fx]*$/i.test(line)) {
    const go = /^\s*([\w./*()-]+?)\(/.exec(previous);
    const rust = /^\s*\d+:\s+([\w:]+?)(?:::h[0-9a-f]{16})?\s*$/.exec(previous);
    const raw = go?.[1] ?? rust?.[1];
    const name = raw ? clean(raw) : undefined;
    if (name) return { name, fromPrevious: true };
  }
  return undefined;
}

/** Lower-cased search tokens, split like the engine splits them (camelCase, snake_case, digits). */
export function searchTokens(text: string): string[] {
  const out: string[] = [];
  for (const chunk of text.split(/[^A-Za-z0-9]+/)) {
    if (chunk === '') continue;
    const parts = chunk
      .replace(/([a-z])([A-Z])/g, '$1 $2')
      .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
      .replace(/([A-Za-z])([0-9])/g, '$1 $2')
      .replace(/([0-9])([A-Za-z])/g, '$1 $2')
      .split(' ');
    for (const p of parts) if (p !== '') out.push(p.toLowerCase());
  }
  return out;
}

/** Product names spelled like identifiers that bug reports use as plain words. */
const PRODUCT_NAMES = new Set(
  'typescript javascript github gitlab postgresql mysql mongodb nodejs graphql macos ios iphone ipad vscode intellij webpack youtube linkedin openai chatgpt'.split(' '),
);

/**
 * A crude English stem (`trimmed` → `trim`, `emits` → `emit`, `values` → `valu`). The engine
 * matches query terms as prefixes of indexed tokens, so a stem still finds the inflected forms
 * and also finds the identifier words (`trimBuffer`) the inflected form would miss.
 */
export function stem(word: string): string {
  const cut = (suffix: string): string | undefined => (word.endsWith(suffix) && word.length - suffix.length >= 4 ? word.slice(0, -suffix.length) : undefined);
  const base = cut('ing') ?? cut('ed') ?? cut('es') ?? (word.endsWith('ss') ? undefined : cut('s')) ?? cut('ly');
  if (base === undefined) return word;
  // Undouble a final consonant (`trimm` → `trim`, `stopp` → `stop`).
  return /([b-df-hj-np-tv-z])\1$/.test(base) ? base.slice(0, -1) : base;
}

/** Whether an identifier is written in code form (not an English word). */
function codeShaped(word: string): boolean {
  if (PRODUCT_NAMES.has(word.toLowerCase())) return false;
  return (
    /[a-z0-9][A-Z]/.test(word) || // camelCase, PascalCase with two words
    /[A-Z]{2,}[a-z]/.test(word) || // HTTPServer
    /[A-Za-z0-9]_[A-Za-z0-9]/.test(word) || // snake_case, SCREAMING_CASE
    /(\.|::|#)[A-Za-z_$]/.test(word) || // qualified
    word.endsWith('()')
  );
}

/** Reads the cues of a task text, each kind in first-seen order, deduplicated. */
export function extractCues(task: string): { cues: Cue[]; words: string[]; mentionsTests: boolean } {
  const cues: Cue[] = [];
  const seen = new Set<string>();
  const push = (c: Cue): void => {
    const key = `${c.kind}\u0000${c.text}\u0000${c.line ?? ''}`;
    if (seen.has(key) || cues.filter((x) => x.kind === c.kind).length >= MAX_CUES) return;
    seen.add(key);
    cues.push(c);
  };
  // A link to a source file on a forge (`github.com/o/r/blob/<ref>/lib/http.js#L236-L251`) points
  // at a file and a line as surely as a stack frame does.
  let frame = 0;
  for (const m of task.matchAll(SOURCE_LINK_RE)) {
    const line = m[2] === undefined ? undefined : Number(m[2]);
    push({ kind: 'path', text: m[1]!, ...(line === undefined ? {} : { line, frame: frame++ }) });
  }
  // URLs, e-mail addresses and domains are data, not code: blank them before anything else.
  let rest = task.replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+|\S+@\S+\.\w+|\b[\w-]+(?:\.[\w-]+)*\.(?:com|org|net|io|dev|edu|gov)\b/gi, (m) => ' '.repeat(m.length));
  // Paths next, blanked out so `render.ts` is not also read as an identifier. A path with a line
  // is a stack frame (or a pointer at a line): its line, and the line naming its function when
  // that is the line above (Go, Rust), are consumed whole, so frame names do not count again as
  // identifiers; their words still feed the text query.
  const lines = rest.split('\n');
  const frameWords: string[] = [];
  lines.forEach((line, i) => {
    const matches = line.length > MAX_PATH_LINE ? [] : [...line.matchAll(PATH_RE)];
    if (matches.length === 0) return;
    let stripped = line;
    let isFrame = false;
    for (const m of matches) {
      stripped = stripped.replace(m[0], ' '.repeat(m[0].length));
      const text = m[1]!.replace(/\\/g, '/');
      if (m[2] === undefined) {
        // A file a forge link already pointed at (`[gin.go](…/blob/master/gin.go#L73)`) is known.
        if (!cues.some((c) => c.kind === 'path' && c.text.endsWith(text))) push({ kind: 'path', text });
        continue;
      }
      isFrame = true;
      const named = frameName(stripped, i > 0 ? lines[i - 1]! : '');
      push({ kind: 'path', text, line: Number(m[2]), frame: frame++, ...(named ? { name: named.name } : {}) });
      if (named) {
        frameWords.push(named.name);
        if (named.fromPrevious) lines[i - 1] = ' '.repeat(lines[i - 1]!.length);
      }
    }
    lines[i] = isFrame ? ' '.repeat(line.length) : stripped;
  });
  rest = lines.join('\n');
  // Quoted text: code-shaped contents are identifiers, anything else a literal to grep for.
  const quoted = /`([^`\n]{2,200})`|"([^"\n]{3,200})"|(?<![A-Za-z0-9])'([^'\n]{3,200})'(?![A-Za-z0-9])/g;
  for (const m of rest.matchAll(quoted)) {
    const inner = (m[1] ?? m[2] ?? m[3] ?? '').trim();
    if (inner === '') continue;
    const ident = /^[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*(?:\(\))?$/.test(inner);
    if (ident && (m[1] !== undefined || codeShaped(inner))) push({ kind: 'identifier', text: inner.replace(/\(\)$/, '') });
    else if (!ident) push({ kind: 'literal', text: inner });
  }
  // Error messages: `SomeError: message`, `panic: message`. The message is a literal to grep for;
  // the exception type names where it is declared, not where it is raised, so it counts less.
  // Its plain words are the message's, already searched as one literal: they are not word cues.
  const messageSpans: [number, number][] = [];
  rest = rest.replace(/\b([A-Z]\w*(?:Error|Exception)|Error|Exception|panic|fatal|error)(\s*:\s*)([^\n]{6,200})/g, (_whole, type: string, sep: string, message: string, offset: number) => {
    const msg = message.trim().replace(/[.;,]+$/, '');
    if (!/^["'`]/.test(msg)) push({ kind: 'literal', text: msg });
    if (/^[A-Z]/.test(type) && type !== 'Error' && type !== 'Exception') push({ kind: 'identifier', text: type, errorType: true });
    messageSpans.push([offset, offset + type.length + sep.length + message.length]);
    return ' '.repeat(type.length + sep.length) + message;
  });
  const inMessage = (at: number): boolean => messageSpans.some(([from, to]) => at >= from && at < to);
  for (const m of rest.matchAll(IDENT_RE)) {
    const word = m[0];
    // `retry({ count: 2 })`, `combineLatest([])`: a word applied to arguments is a call.
    const called = rest[(m.index ?? 0) + word.length] === '(';
    if (codeShaped(word) || (called && word.length >= 3 && !STOPWORDS.has(word.toLowerCase()))) {
      push({ kind: 'identifier', text: word.replace(/\(\)$/, '') });
    } else if (word.length >= 3 && !STOPWORDS.has(word.toLowerCase()) && !inMessage(m.index ?? 0)) {
      push({ kind: 'word', text: word });
    }
  }
  const words: string[] = [];
  const wordSeen = new Set<string>();
  for (const token of searchTokens(`${rest} ${frameWords.join(' ')}`)) {
    if (token.length < 2 || STOPWORDS.has(token)) continue;
    const t = stem(token);
    if (wordSeen.has(t)) continue;
    wordSeen.add(t);
    words.push(t);
  }
  const mentionsTests = /\b(tests?|specs?|flaky|jest|pytest|unittest|vitest|mocha)\b/i.test(task);
  return { cues, words, mentionsTests };
}

/** One ranked list a sub-query produced. */
interface Channel {
  label: string;
  weight: number;
  ids: string[];
}

/** A fused candidate. */
interface Candidate {
  id: string;
  score: number;
  /** Each piece of evidence with what it added to the score. */
  why: { text: string; adds: number }[];
}

/** Reasons a row lists: its strongest evidence (a report fans out into many weak agreements). */
const MAX_WHY = 4;

/** Adds `adds` to a candidate's score and records why. */
function credit(c: Candidate, adds: number, text: string): void {
  c.score += adds;
  c.why.push({ text, adds });
}

/** One explore row. */
export interface ExploreRow {
  rank: number;
  id: string;
  qualified: string;
  kind: string;
  path: string;
  /** `start-end` (1-based, inclusive). */
  lines: string;
  score: number;
  /**
   * The strongest evidence for it, strongest first (at most four): the sub-queries that found it
   * with its place in each (`text #2`, `identifier getUser (exact)`), graph and file agreement.
   */
  why: string[];
  signature?: string;
  /** Qualified names of up to five direct callers. */
  callers?: string[];
  /** Qualified names of up to five direct callees. */
  callees?: string[];
  /** Full source (top five rows, while the budget allows). */
  source?: string;
  /** Present (true) when `source` stops before the symbol ends (cut to fit the budget). */
  source_truncated?: boolean;
}

/** The explore result. */
export interface ExploreResult {
  results: ExploreRow[];
  /** Path → qualified names of the listed symbols in it, in rank order. */
  files: Record<string, string[]>;
  /**
   * The files ranked next, best first, none of them in `files`: where the unlisted candidates
   * live and what the file-content ranking found (a file with no symbol to list shows up here).
   */
  more_files?: string[];
  /** `complete`, or `partial: N more candidates` when candidates were left out. */
  completeness: string;
  /** The sub-queries run, with their hit counts. */
  queries: string[];
  token_budget: number;
  tokens_used: number;
  truncated: boolean;
  /** What was cut to fit the budget (absent when nothing was): bodies, relation lists, sub-query lines, more_files paths, rows. */
  cut?: { bodies: number; relations: number; queries: number; more_files: number; rows: number };
}

/** Kinds a symbol cue may land on (files, modules and imports are not answers). */
const ANSWER_KINDS = new Set(['function', 'method', 'type', 'interface', 'field', 'constant', 'variable', 'enum_member']);

/** The longest start of `text` that fits `max` bytes of UTF-8 (a character is never split). */
function clipBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, 'utf8') <= max) return text;
  return Buffer.from(text, 'utf8').subarray(0, max).toString('utf8').replace(/\uFFFD$/, '');
}

/** A sub-query's answer, or null when the engine refused its arguments (a text with no usable words). */
function unlessRefused<T>(run: () => T): T | null {
  try {
    return run();
  } catch (error) {
    if (error instanceof QueryError && error.code === 'invalid_argument') return null;
    throw error;
  }
}

/** Runs the sub-queries of the cues and returns their ranked lists. */
class Explorer {
  readonly nodes = new Map<string, NodeSummary>();
  readonly channels: Channel[] = [];
  readonly queries: string[] = [];

  constructor(
    private readonly reader: ContextReader,
    /** Only symbols under this path prefix count (the caller's `path`). */
    private readonly scope: string | undefined,
  ) {}

  private remember(n: NodeSummary): boolean {
    if (!ANSWER_KINDS.has(n.kind) || n.external) return false;
    if (this.scope !== undefined && !n.file_path.startsWith(this.scope)) return false;
    if (!this.nodes.has(n.id)) this.nodes.set(n.id, n);
    return true;
  }

  /** `search_symbols`, treating a refused query (too many terms, nothing left) as no hits. */
  private search(args: Record<string, unknown>): SearchSymbolsResult | null {
    return unlessRefused(() => this.reader.query<SearchSymbolsResult>('search_symbols', this.scope === undefined ? args : { ...args, path: this.scope }));
  }

  private add(label: string, weight: number, rows: readonly NodeSummary[]): void {
    const ids = rows.filter((r) => this.remember(r)).map((r) => r.id);
    // Only sub-queries that found something are worth the agent's tokens.
    if (ids.length > 0) this.queries.push(`${label} → ${ids.length}`);
    if (ids.length > 0) this.channels.push({ label, weight, ids: [...new Set(ids)] });
  }

  /**
   * The whole text as one ranked query (its informative words, at most `MAX_TEXT_TERMS` terms).
   * `readAs: 'names'` when the text names code: its words then echo names more than doc comments.
   */
  text(words: readonly string[], readAs: 'auto' | 'names' = 'auto'): void {
    const kept = words.slice(0, MAX_TEXT_TERMS);
    if (kept.length === 0) return;
    const r = this.search({ query: kept.join(' '), limit: 40, read_as: readAs });
    if (r) this.add('text', W.text, r.results.map(nodeOfHit));
  }

  /**
   * The task's own words (unstemmed, stopwords kept: BM25 weighs them) as one query read as a
   * sentence, so doc comments that describe the behaviour rank their symbols.
   */
  sentence(task: string): void {
    const terms: string[] = [];
    for (const t of searchTokens(task)) if (!terms.includes(t) && terms.length < MAX_SENTENCE_TERMS) terms.push(t);
    if (terms.length < 4) return;
    const r = this.search({ query: terms.join(' '), limit: 40, read_as: 'sentence' });
    if (r) this.add('sentence', W.sentence, r.results.map(nodeOfHit));
  }

  /**
   * The whole task text against function and method bodies (`read_as: body`): reports describe
   * behaviour, and behaviour, its literals and its comments live in bodies, not in names.
   */
  bodies(task: string, includeTests: boolean, label = 'body', weight: number = W.body): void {
    // Tests restate a report's words in their bodies: unless the task is about tests, they would
    // take the channel's places from the code under test.
    const r = this.search({ query: clipBytes(task, MAX_BODY_QUERY_BYTES), limit: BODY_ROWS, read_as: 'body', kind: 'function,method', include_tests: includeTests });
    if (r) this.add(label, weight, r.results.map(nodeOfHit));
  }

  /** Files ranked by their whole text against the task, best first (none when nothing matched). */
  contentFiles(task: string, includeTests: boolean): string[] {
    const r = unlessRefused(() =>
      this.reader.query<FindFilesResult>('find_files', { query: clipBytes(task, MAX_BODY_QUERY_BYTES), by: 'content', include_tests: includeTests, limit: CONTENT_FILES, ...(this.scope === undefined ? {} : { path: this.scope }) }),
    );
    if (r && r.results.length > 0) this.queries.push(`file content → ${r.results.length}`);
    return r?.results.map((h) => h.path) ?? [];
  }

  /** An identifier: exact rows count a lot, ranked rows (no exact match) a little. */
  identifier(text: string, exactWeight: number = W.identExact, label = 'identifier'): void {
    const parts = text.split(/\.|::|#/);
    // `pkg.Func`, `com.x.Y.method`: the engine's `Owner.name` form is the last two segments.
    const forms = parts.length > 2 ? [parts.slice(-2).join('.'), parts[parts.length - 1]!] : parts.length === 2 ? [text.replace(/::|#/g, '.'), parts[1]!] : [text];
    for (const form of forms) {
      const r = this.search({ query: form, limit: 10 });
      if (!r) continue;
      const exact = r.results.filter((h) => h.tier !== 'ranked');
      if (exact.length > 0) {
        // A name several symbols share says less about each of them.
        const specificity = 1 / Math.sqrt(Math.max(1, exact.length - 2));
        this.add(`${label === 'identifier' ? `identifier ${form}` : label} (exact)`, exactWeight * specificity, exact.map(nodeOfHit));
        return;
      }
      if (form === forms[forms.length - 1] && label === 'identifier') this.add(`identifier ${form}`, W.identRanked, r.results.slice(0, 5).map(nodeOfHit));
    }
  }

  /** A plain word that names symbols exactly (`summarize`, `Invoice`); common names are ignored. */
  word(text: string): void {
    const r = this.search({ query: text, limit: MAX_WORD_MATCHES + 1 });
    if (!r) return;
    const exact = r.results.filter((h) => h.tier !== 'ranked');
    if (exact.length === 0 || exact.length > MAX_WORD_MATCHES) return;
    this.add(`word ${text} (exact)`, W.wordExact, exact.map(nodeOfHit));
  }

  /** Indexed files a path cue may mean: the same path, or the longest suffix match of its segments. */
  private resolvePath(p: string): string[] {
    const clean = p.replace(/^\.\//, '');
    const root = this.reader.root().replace(/\\/g, '/');
    const rel = clean.startsWith(`${root}/`) ? clean.slice(root.length + 1) : clean;
    if (this.reader.fileNode(rel)) return [rel];
    const base = rel.slice(rel.lastIndexOf('/') + 1);
    const r = unlessRefused(() => this.reader.query<FindFilesResult>('find_files', { query: base, limit: 50 }));
    if (!r) return [];
    const want = rel.split('/').reverse();
    let best = 0;
    let paths: string[] = [];
    for (const hit of r.results) {
      const have = hit.path.split('/').reverse();
      let n = 0;
      while (n < want.length && n < have.length && want[n] === have[n]) n++;
      if (n === 0) continue;
      if (n > best) {
        best = n;
        paths = [hit.path];
      } else if (n === best) paths.push(hit.path);
    }
    return paths.slice(0, 3);
  }

  /**
   * A path cue. With a line (a stack frame), the innermost symbol there, weighted by the frame's
   * depth; when the file or line is not in the index (a bundled or installed copy), the function
   * the frame names, if it names one exactly. Without a line, the text ranked inside the file.
   */
  path(cue: Cue, words: readonly string[]): void {
    const weight = W.frame * FRAME_DECAY ** (cue.frame ?? 0);
    let found = false;
    for (const rel of this.resolvePath(cue.text)) {
      const line = cue.line;
      if (line !== undefined) {
        const inner = this.reader
          .fileSymbols(rel)
          .filter((s) => ANSWER_KINDS.has(s.kind) && s.start_line <= line && line <= s.end_line)
          // Innermost: the shortest span; callables before the types that hold them.
          .sort((a, b) => a.end_line - a.start_line - (b.end_line - b.start_line) || a.start_line - b.start_line);
        const hit = inner.find((s) => s.kind === 'function' || s.kind === 'method') ?? inner[0];
        if (hit) {
          this.add(`frame ${rel}:${line}`, weight, [summaryOf(hit)]);
          found = true;
        }
        continue;
      }
      const kept = words.slice(0, MAX_TEXT_TERMS);
      if (kept.length === 0) continue;
      const r = this.search({ query: kept.join(' '), scope: [rel], limit: 10 });
      if (r) this.add(`in ${rel}`, W.pathScoped, r.results.map(nodeOfHit));
    }
    if (!found && cue.name) this.identifier(cue.name, weight, `frame ${cue.name}`);
  }

  /** A literal: the symbols enclosing it in the code, in hit order (a fragment when the whole is absent). */
  literal(text: string): void {
    // Messages are built from parts (`got ${value}`): after the whole text, try its opening run
    // before the first number, placeholder, quoted value or bracket, then its longest such run.
    const fragments = text
      .split(/\d+|\$\{[^}]*\}|%[sdvrf]|\{[^}]*\}|[()[\]"`]|(?<!\w)'|'(?!\w)/)
      .map((s) => s.trim())
      .filter((s) => s.length >= 8);
    const attempts = [...new Set([text, ...fragments.slice(0, 1), ...fragments.sort((a, b) => b.length - a.length).slice(0, 1)])];
    for (const q of attempts) {
      const r = unlessRefused(() => this.reader.query<SearchTextResult>('search_text', { query: q, case_sensitive: false, limit: 100, ...(this.scope === undefined ? {} : { path: this.scope }) }));
      if (!r) continue;
      const rows: NodeSummary[] = [];
      for (const h of r.hits) {
        if (!h.symbol_id || !h.symbol_id.includes('::')) continue;
        const known = this.nodes.get(h.symbol_id);
        if (known) rows.push(known);
        else {
          try {
            rows.push(this.reader.symbol(h.symbol_id).node);
          } catch {
            // A hit in a symbol the graph no longer has (file changed since): skip it.
          }
        }
      }
      if (rows.length === 0 && r.total_hits === 0) continue;
      const short = q.length > 40 ? `${q.slice(0, 37)}…` : q;
      this.add(`literal "${short}"`, r.total_hits > COMMON_LITERAL_HITS ? W.literalCommon : W.literal, rows);
      return;
    }
  }
}

/** Weighted reciprocal-rank fusion of the channels; `why` lists each channel with the rank it gave. */
function fuse(channels: readonly Channel[]): Map<string, Candidate> {
  const out = new Map<string, Candidate>();
  for (const ch of channels) {
    ch.ids.forEach((id, i) => {
      let c = out.get(id);
      if (!c) out.set(id, (c = { id, score: 0, why: [] }));
      credit(c, ch.weight / (RRF_K + i + 1), ch.ids.length > 1 ? `${ch.label} #${i + 1}` : ch.label);
    });
  }
  return out;
}

/** Explore arguments after validation. */
export interface ExploreArgs {
  task: string;
  /** Only symbols under this repository path prefix. */
  path?: string;
  token_budget: number;
  max_symbols: number;
}

/** Ranks the symbols a task text is about and packs them, with context, under the token budget. */
export function explore(reader: ContextReader, args: ExploreArgs): ExploreResult {
  const { cues, words, mentionsTests } = extractCues(args.task);
  const ex = new Explorer(reader, args.path === undefined || args.path === '' ? undefined : args.path.replace(/^\.\//, ''));
  ex.text(words, cues.some((c) => c.kind === 'identifier') ? 'names' : 'auto');
  // A task that names no code (no identifier, path, frame or literal) describes behaviour: its
  // whole wording, read as a sentence against doc comments, is a second ranked list.
  if (cues.every((c) => c.kind === 'word')) ex.sentence(args.task);
  ex.bodies(args.task, mentionsTests);
  const lines = args.task.trim().split('\n');
  const title = lines[0]!.trim();
  if (lines.length > 1 && title.length >= 8 && title.length <= MAX_TITLE) ex.bodies(title, mentionsTests, 'title', W.title);
  const contentFiles = ex.contentFiles(args.task, mentionsTests);
  for (const c of cues) {
    // An exception type says what is thrown, not where: `throws an UnsubscriptionError` counts less.
    if (c.kind === 'identifier') ex.identifier(c.text, c.errorType || /(Error|Exception)$/.test(c.text) ? W.errorType : W.identExact);
    else if (c.kind === 'word') ex.word(c.text);
    else if (c.kind === 'literal') ex.literal(c.text);
    else ex.path(c, words);
  }
  const fused = fuse(ex.channels);
  // Test code's evidence counts for less, whichever step adds it (bonuses below are scaled too).
  const share = new Map<string, number>();
  for (const c of fused.values()) {
    const n = ex.nodes.get(c.id)!;
    share.set(c.id, !mentionsTests && reader.isTestCode(n) ? TEST_DEMOTION : 1);
    c.score *= share.get(c.id)!;
  }
  // Members of a type the text names exactly, found by the whole text too, join their type.
  const textChannel = ex.channels.find((ch) => ch.label === 'text');
  const namedTypes = ex.channels
    .filter((ch) => ch.label.startsWith('identifier') && ch.label.endsWith('(exact)'))
    .flatMap((ch) => ch.ids)
    .filter((id) => ['type', 'interface'].includes(ex.nodes.get(id)!.kind));
  textChannel?.ids.forEach((id, i) => {
    const owner = namedTypes.find((t) => id.startsWith(`${t}.`));
    if (!owner) return;
    const c = fused.get(id)!;
    credit(c, (share.get(id)! * W.member) / (RRF_K + i + 1), `member of ${ex.nodes.get(owner)!.qual_name}`);
  });
  const order = (a: Candidate, b: Candidate): number => b.score - a.score || a.id.localeCompare(b.id);
  let ranked = [...fused.values()].sort(order);

  // Graph agreement: callers and callees of the leaders that some cue also found move up a little.
  const relations = new Map<string, { callers: NodeSummary[]; callees: NodeSummary[] }>();
  const relationsOf = (id: string): { callers: NodeSummary[]; callees: NodeSummary[] } => {
    let r = relations.get(id);
    if (!r) {
      try {
        const callers = reader.callers(id, 1, RELATIONS).callers.map((c) => c.caller);
        const chain = reader.callees(id, RELATIONS);
        const callees = chain.nodes.filter((n) => n.depth === 1).map((n) => n.node);
        r = { callers, callees };
      } catch (error) {
        if (!(error instanceof QueryError)) throw error;
        r = { callers: [], callees: [] };
      }
      relations.set(id, r);
    }
    return r;
  };
  const leaders = ranked.slice(0, 5);
  leaders.forEach((lead, i) => {
    const rel = relationsOf(lead.id);
    for (const n of [...rel.callers, ...rel.callees]) {
      const c = fused.get(n.id);
      if (!c || c.id === lead.id) continue;
      credit(c, (share.get(c.id)! * W.neighbour) / (RRF_K + i + 1), `neighbour of ${ex.nodes.get(lead.id)!.qual_name}`);
    }
  });
  // File evidence: a candidate whose file holds other strong candidates moves up.
  const byFile = new Map<string, number[]>();
  for (const c of fused.values()) {
    const p = ex.nodes.get(c.id)!.file_path;
    const scores = byFile.get(p);
    if (scores) scores.push(c.score);
    else byFile.set(p, [c.score]);
  }
  const fileScore = new Map<string, { score: number; top: number; count: number }>();
  for (const [p, scores] of byFile) {
    const [a = 0, b = 0, c = 0] = scores.sort((x, y) => y - x);
    fileScore.set(p, { score: a + 0.5 * (b + c), top: a, count: scores.length });
  }
  const contentRank = new Map(contentFiles.map((p, i) => [p, i]));
  for (const c of fused.values()) {
    const p = ex.nodes.get(c.id)!.file_path;
    const f = fileScore.get(p)!;
    // The file's evidence includes the candidate's own score: as a reason it counts only what
    // the others add.
    const fileAdds = share.get(c.id)! * W.file * f.score;
    const own = c.score === f.top ? f.top : 0.5 * c.score;
    c.score += fileAdds;
    if (f.count > 1) c.why.push({ text: `file holds ${f.count} candidates`, adds: share.get(c.id)! * W.file * Math.max(0, f.score - own) });
    const at = contentRank.get(p);
    if (at !== undefined) credit(c, (share.get(c.id)! * W.fileContent) / (RRF_K + at + 1), `file content #${at + 1}`);
  }
  ranked = [...fused.values()].sort(order);

  const chosen = ranked.slice(0, args.max_symbols);
  const rows: ExploreRow[] = chosen.map((c, i) => {
    const n = ex.nodes.get(c.id)!;
    const rel = relationsOf(c.id);
    const row: ExploreRow = {
      rank: i + 1,
      id: n.id,
      qualified: n.qual_name,
      kind: n.kind,
      path: n.file_path,
      lines: lineRange(n),
      score: Math.round(c.score * 10000) / 10000,
      why: [...c.why]
        .sort((a, b) => b.adds - a.adds)
        .slice(0, MAX_WHY)
        .map((w) => w.text),
      ...(n.signature ? { signature: n.signature } : {}),
      ...(rel.callers.length > 0 ? { callers: rel.callers.map((x) => x.qual_name) } : {}),
      ...(rel.callees.length > 0 ? { callees: rel.callees.map((x) => x.qual_name) } : {}),
    };
    if (i < BODIES) {
      const src = reader.symbolSource(n, 1024 * 1024);
      if (src) row.source = src.text;
    }
    return row;
  });
  // The files after the rows': the content ranking first (whole-file text against the task, a
  // view the symbol rows do not give), then the files of the unlisted candidates.
  const fileOrder = [...new Set([...contentFiles, ...ranked.map((c) => ex.nodes.get(c.id)!.file_path)])];
  return pack(rows, ranked.length, ex.queries, fileOrder, args.token_budget);
}

/** The result object for a set of rows. */
function build(rows: readonly ExploreRow[], candidates: number, queries: readonly string[], fileOrder: readonly string[], moreLimit: number, budget: number): ExploreResult {
  const files: Record<string, string[]> = {};
  for (const r of rows) (files[r.path] ??= []).push(r.qualified);
  const moreFiles = fileOrder.filter((p) => files[p] === undefined).slice(0, moreLimit);
  const more = candidates - rows.length;
  return {
    results: [...rows],
    files,
    ...(moreFiles.length > 0 ? { more_files: moreFiles } : {}),
    completeness: more > 0 ? `partial: ${more} more candidate${more === 1 ? '' : 's'}` : 'complete',
    queries: [...queries],
    token_budget: budget,
    tokens_used: 0,
    truncated: false,
  };
}

/** Smallest share of the budget a cut-down first body keeps before it is dropped instead. */
const MIN_BODY_SHARE = 0.25;

/**
 * Packs rows under the budget, cutting the least useful first: bodies of rows 5..2, relation
 * lists below the bodies, the sub-query list, `more_files` beyond five, the first body (cut to its
 * head lines while that keeps a quarter of the budget, else dropped), rows beyond the eighth, the
 * rest of `more_files`, rows beyond the third, the remaining relation lists, and finally rows
 * down to one.
 * Everything cut is counted; sizes are measured on the answer as sent (cut record included).
 */
function pack(rows: ExploreRow[], candidates: number, allQueries: readonly string[], fileOrder: readonly string[], budget: number): ExploreResult {
  const cut = { bodies: 0, relations: 0, queries: 0, more_files: 0, rows: 0 };
  let queries = allQueries;
  let moreFiles = MORE_FILES;
  const size = (): number => estimateTokens({ ...build(rows, candidates, queries, fileOrder, moreFiles, budget), tokens_used: 999999, truncated: true, cut });
  const over = (): boolean => size() > budget;
  const dropBody = (r: ExploreRow): void => {
    if (r.source === undefined) return;
    delete r.source;
    delete r.source_truncated;
    cut.bodies++;
  };
  const popRowsTo = (keep: number): void => {
    while (rows.length > keep && over()) {
      rows.pop();
      cut.rows++;
    }
  };
  const dropRelations = (r: ExploreRow): void => {
    if (r.callers === undefined && r.callees === undefined) return;
    delete r.callers;
    delete r.callees;
    cut.relations++;
  };
  for (let i = Math.min(rows.length, BODIES) - 1; i >= 1 && over(); i--) dropBody(rows[i]!);
  for (let i = rows.length - 1; i >= BODIES && over(); i--) dropRelations(rows[i]!);
  if (over() && queries.length > 0) {
    cut.queries = queries.length;
    queries = [];
  }
  // The next files are a cheap list an agent opens next: shortened to five here, dropped only
  // after the first body and the rows beyond the eighth.
  const trimFiles = (keep: number): void => {
    const listed = build(rows, candidates, queries, fileOrder, moreFiles, budget).more_files?.length ?? 0;
    if (listed > keep) cut.more_files += listed - keep;
    moreFiles = Math.min(moreFiles, keep);
  };
  while (moreFiles > MIN_MORE_FILES && over()) trimFiles(moreFiles - 1);
  const first = rows[0];
  if (first?.source !== undefined && over()) {
    // Cut the first body to the lines that fit, keeping at least a quarter of the budget for it.
    const keep = Buffer.byteLength(first.source, 'utf8') - (size() - budget) * BYTES_PER_TOKEN;
    if (keep >= MIN_BODY_SHARE * budget * BYTES_PER_TOKEN) {
      let text = '';
      for (const line of first.source.split('\n')) {
        if (Buffer.byteLength(`${text}${line}\n`, 'utf8') > keep) break;
        text += `${line}\n`;
      }
      first.source = text;
      first.source_truncated = true;
    }
  }
  // Ranked rows are the point of explore: the first body goes before them, and the next files
  // before all but the first few rows (a tenth row from the same file says less than five paths).
  if (first && over()) dropBody(first);
  popRowsTo(ROWS_BEFORE_FILES);
  if (over()) trimFiles(0);
  popRowsTo(3);
  for (let i = rows.length - 1; i >= 0 && over(); i--) dropRelations(rows[i]!);
  popRowsTo(1);
  const result = build(rows, candidates, queries, fileOrder, moreFiles, budget);
  const truncated = cut.bodies + cut.relations + cut.queries + cut.more_files + cut.rows > 0 || first?.source_truncated === true;
  result.truncated = truncated;
  if (truncated) result.cut = cut;
  // Twice: the count's own digits are part of what it counts.
  result.tokens_used = estimateTokens(result);
  result.tokens_used = estimateTokens(result);
  return result;
}
