// `npm run bench:tokens`: for a fixed set of questions on a pinned real corpus (npm rxjs@7.8.2 src/),
// how many tokens an agent takes in through gortex (MCP text, JSON and GCX1) versus ripgrep, and
// whether that text holds the answer (the gold symbol) within a 2k and a 10k token budget.
// Writes the "Tokens" section of BENCHMARKS.md plus raw JSON under benches/results/.
//
//   node dist/benches/token-bench.js [--questions benches/token-questions.json] [--out BENCHMARKS.md]
//                                   [--from-json benches/results/tokens-X.json]
//
// Pipelines, all run on the same tree in the same run:
//   gortex     in-process callTool: search_symbols (limit 5) → get_symbol_source of the top hit
//              (→ get_callers of it for "what calls" questions); the text is what an MCP client
//              receives: JSON.stringify(result) or encodeGcx(tool, result).
//   rg+read    `rg -n KEYWORD`, then every matched file read whole.
//   rg -C 5    `rg -n -C 5 KEYWORD`, the context lines only.
// Tokens are cl100k_base counts from gpt-tokenizer. The answer is found when the gold node id
// (gortex) or the gold symbol's defining line at its path and line number (ripgrep) has been read
// by the time the budget runs out.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { countTokens as cl100k } from 'gpt-tokenizer/cjs/encoding/cl100k_base';
import { Engine } from '../ts/engine/engine';
import { callTool, ToolCallError } from '../ts/calls/dispatch';
import { ResultWithMeta } from '../ts/tools/registry';
import { type ToolContext } from '../ts/workspace/context';
import { encodeGcx } from '../ts/wire/gcx';
import { Args, benchMain, fetchCorpora, ROOT, type Json } from './common';

/** The token budgets recall is measured at. */
export const BUDGETS = [2000, 10000] as const;
/** The repo name used in node ids, so gold ids are `rxjs/<path>::<qualified>`. */
const REPO_NAME = 'rxjs';

/** What a question asks; `callers` questions also ask gortex for the callers. */
export type QuestionKind = 'callers' | 'identifier' | 'natural';

/** One benchmark question (see benches/token-questions.json). */
export interface Question {
  id: string;
  kind: QuestionKind;
  question: string;
  /** What gortex's search_symbols is given. */
  query: string;
  /** The fixed string a ripgrep user greps for. */
  rg: string;
  /** Gold node ids without the repo segment; any one counts. */
  gold: string[];
}

/**
 * Reads and checks a questions file: a `questions` array of well-formed entries with unique ids.
 * Throws naming the first bad entry.
 */
export function loadQuestions(file: string): Question[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as Json;
  if (!Array.isArray(raw.questions)) throw new Error(`${file}: "questions" must be an array`);
  const seen = new Set<string>();
  return raw.questions.map((q: Json, i: number) => {
    const where = `${file}: questions[${i}]`;
    for (const key of ['id', 'question', 'query', 'rg']) {
      if (typeof q[key] !== 'string' || q[key].length === 0) throw new Error(`${where}: "${key}" must be a non-empty string`);
    }
    if (!['callers', 'identifier', 'natural'].includes(q.kind)) throw new Error(`${where}: "kind" must be callers, identifier or natural`);
    if (!Array.isArray(q.gold) || q.gold.length === 0 || !q.gold.every((g: unknown) => typeof g === 'string' && g.includes('::'))) {
      throw new Error(`${where}: "gold" must be a non-empty array of <path>::<qualified> ids`);
    }
    if (seen.has(q.id)) throw new Error(`${where}: duplicate id ${q.id}`);
    seen.add(q.id);
    return { id: q.id, kind: q.kind, question: q.question, query: q.query, rg: q.rg, gold: q.gold } as Question;
  });
}

/** cl100k_base token count; special-token markers in source text count as ordinary text. */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : cl100k(text, { disallowedSpecial: new Set() });
}

/**
 * One piece of text an agent reads, in order. `find` returns the offset just past the answer in
 * `text`, or -1 when the answer is not in this piece.
 */
export interface Segment {
  text: string;
  tokens: number;
  find: (text: string) => number;
}

/** A pipeline's outcome: total tokens read, and the token position where the answer was complete. */
export interface Measured {
  tokens: number;
  /** Tokens read up to and including the answer; null when the answer never appears. */
  answer_at: number | null;
}

/** Adds up the segments and locates the first answer (tokens before it plus the piece up to it). */
export function measure(segments: readonly Segment[]): Measured {
  let before = 0;
  let answerAt: number | null = null;
  for (const s of segments) {
    if (answerAt === null) {
      const end = s.find(s.text);
      if (end >= 0) answerAt = before + countTokens(s.text.slice(0, end));
    }
    before += s.tokens;
  }
  return { tokens: before, answer_at: answerAt };
}

/** Whether a measured answer fits a budget. */
export const within = (m: Measured, budget: number): boolean => m.answer_at !== null && m.answer_at <= budget;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Finder for gortex text: the end of the first full gold id, not a prefix of a longer id
 * (`x::a` must not match `x::a.b` or `x::a_L3`).
 */
export function idFinder(fullIds: readonly string[]): (text: string) => number {
  const re = new RegExp(`(?:^|[^\\w$./])(?:${fullIds.map(escapeRe).join('|')})(?![\\w$.])`, 'm');
  return (text) => {
    const m = re.exec(text);
    return m ? m.index + m[0].length : -1;
  };
}

/** Where a gold symbol is defined: path under the corpus root, 1-based line, and that line's text. */
export interface GoldLine {
  path: string;
  line: number;
  text: string;
}

/** Finder for ripgrep output: the gold's line printed as a match (`p:L:text`) or context (`p-L-text`). */
export function rgLineFinder(golds: readonly GoldLine[]): (text: string) => number {
  const needles = golds.flatMap((g) => [`${g.path}:${g.line}:${g.text}\n`, `${g.path}-${g.line}-${g.text}\n`]);
  return (text) => {
    let best = -1;
    for (const n of needles) {
      let i = text.indexOf(n);
      while (i > 0 && text[i - 1] !== '\n') i = text.indexOf(n, i + 1);
      if (i >= 0 && (best < 0 || i + n.length < best)) best = i + n.length;
    }
    return best;
  };
}

const log = (msg: string): void => void process.stderr.write(`bench:tokens: ${msg}\n`);

interface Options { questions: string; out: string; fromJson?: string }

function parseArgs(argv: string[]): Options {
  const o: Options = { questions: path.join(ROOT, 'benches', 'token-questions.json'), out: path.join(ROOT, 'BENCHMARKS.md') };
  const args = new Args(argv);
  for (const a of args) {
    const value = (): string => args.value(a);
    if (a === '--questions') o.questions = path.resolve(value());
    else if (a === '--out') o.out = path.resolve(value());
    else if (a === '--from-json') o.fromJson = path.resolve(value());
    else throw new Error(`unknown argument ${a}`);
  }
  return o;
}

/** Runs ripgrep as a user at the corpus root would (`rg ARGS PATTERN`); paths printed without `./`. */
function rg(root: string, args: string[], pattern: string): string {
  // `.` is passed so rg never reads stdin; the `./` it then prints is dropped again.
  const r = spawnSync('rg', [...args, '--sort', 'path', '--color', 'never', '--no-heading', '-F', '-e', pattern, '.'], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  if (r.error) throw new Error(`ripgrep could not run (${r.error.message}); install it: apt-get install ripgrep`);
  if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${args.join(' ')} ${pattern} failed: ${r.stderr}`);
  return r.stdout.replace(/^\.\//gm, '');
}

/** The text an MCP client receives for one call, in both wire formats (errors read the same in both). */
async function clientText(ctx: ToolContext, tool: string, args: Json): Promise<{ json: string; gcx: string; result?: Json }> {
  try {
    const answer = await callTool(ctx, tool, args);
    const result = (answer instanceof ResultWithMeta ? answer.result : answer) as Json;
    return { json: JSON.stringify(result), gcx: encodeGcx(tool, result), result };
  } catch (error) {
    if (!(error instanceof ToolCallError)) throw error;
    const text = `${error.code}: ${error.message}`;
    return { json: text, gcx: text };
  }
}

async function run(o: Options): Promise<Json> {
  const questions = loadQuestions(o.questions);
  const root = fetchCorpora(['rxjs'], log).get('rxjs');
  if (!root) throw new Error('fetch-corpora.sh did not report rxjs');
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'gortex-bench-tokens-'));
  try {
    const engine = new Engine({ home });
    log(`indexing ${root}`);
    const report = await engine.indexRepo(root, { name: REPO_NAME });
    const ctx: ToolContext = { engine, repo: report.repo, root };

    const fileTokens = new Map<string, { text: string; tokens: number }>();
    const fileBlock = (rel: string): { text: string; tokens: number } => {
      let b = fileTokens.get(rel);
      if (!b) {
        // A header per file stands for the file name an agent's read tool reports with the content.
        const text = `==> ${rel} <==\n${fs.readFileSync(path.join(root, rel), 'utf8')}`;
        b = { text, tokens: countTokens(text) };
        fileTokens.set(rel, b);
      }
      return b;
    };

    const rows: Json[] = [];
    for (const q of questions) {
      const fullIds = q.gold.map((g) => `${REPO_NAME}/${g}`);
      const golds: GoldLine[] = fullIds.map((id) => {
        const s = (engine.query('get_symbol', { id }, { repo: report.repo }) as Json).node as Json;
        const text = fs.readFileSync(path.join(root, s.file_path), 'utf8').split('\n')[s.start_line - 1];
        if (text === undefined) throw new Error(`${q.id}: ${id} line ${s.start_line} is past the end of ${s.file_path}`);
        return { path: s.file_path as string, line: s.start_line as number, text };
      });

      // gortex: the calls an agent makes, each answer as the MCP text it would receive.
      const calls: { tool: string; args: Json }[] = [{ tool: 'search_symbols', args: { query: q.query, limit: 5 } }];
      const search = await clientText(ctx, 'search_symbols', calls[0]!.args);
      const texts = [search];
      const top = (search.result?.results as Json[] | undefined)?.[0]?.id as string | undefined;
      if (top) {
        calls.push({ tool: 'get_symbol_source', args: { id: top } });
        texts.push(await clientText(ctx, 'get_symbol_source', { id: top }));
        if (q.kind === 'callers') {
          calls.push({ tool: 'get_callers', args: { id: top } });
          texts.push(await clientText(ctx, 'get_callers', { id: top }));
        }
      }
      const findId = idFinder(fullIds);
      const seg = (text: string): Segment => ({ text, tokens: countTokens(text), find: findId });
      const json = measure(texts.map((t) => seg(t.json)));
      const gcx = measure(texts.map((t) => seg(t.gcx)));

      // rg + read: the match list, then every matched file whole, in rg's (path) order.
      const findLine = rgLineFinder(golds);
      const listing = rg(root, ['-n'], q.rg);
      const matched = [...new Set(listing.split('\n').filter(Boolean).map((l) => l.slice(0, l.indexOf(':'))))];
      const readSegs: Segment[] = [{ text: listing, tokens: countTokens(listing), find: findLine }];
      for (const rel of matched) {
        const block = fileBlock(rel);
        const gold = golds.find((g) => g.path === rel);
        const find = gold
          ? (text: string): number => {
              // Just past the gold's defining line inside this file's block.
              const body = text.indexOf('\n') + 1;
              let at = body;
              for (let i = 0; i < gold.line && at > 0; i++) at = text.indexOf('\n', at) + 1;
              return at > 0 ? at : text.length;
            }
          : (): number => -1;
        readSegs.push({ text: block.text, tokens: block.tokens, find });
      }
      const rgRead = measure(readSegs);
      const context = rg(root, ['-n', '-C', '5'], q.rg);
      const rgContext = measure([{ text: context, tokens: countTokens(context), find: findLine }]);

      const row = {
        id: q.id,
        kind: q.kind,
        query: q.query,
        rg: q.rg,
        calls: calls.map((c) => c.tool),
        top_hit: top ?? null,
        top_hit_gold: top !== undefined && fullIds.includes(top),
        rg_files: matched.length,
        gortex_json: json,
        gortex_gcx: gcx,
        rg_read: rgRead,
        rg_context: rgContext,
      };
      rows.push(row);
      log(`${q.id}: json ${json.tokens} gcx ${gcx.tokens} rg+read ${rgRead.tokens} rg-C5 ${rgContext.tokens}`);
    }
    const rgVersion = spawnSync('rg', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? 'unknown';
    return {
      corpus: 'rxjs 7.8.2 src/',
      path: root,
      files: report.files,
      nodes: report.nodes,
      edges: report.edges,
      tokenizer: 'cl100k_base (gpt-tokenizer 4.0.0)',
      ripgrep: rgVersion,
      budgets: BUDGETS,
      questions: rows,
      summary: summarise(rows),
    };
  } finally {
    fs.rmSync(home, { recursive: true, force: true });
  }
}

/** The pipelines reported, in table order: result key and label. */
const PIPELINES: [string, string][] = [
  ['gortex_json', 'gortex (JSON)'],
  ['gortex_gcx', 'gortex (GCX1)'],
  ['rg_read', 'rg -n + read matched files'],
  ['rg_context', 'rg -n -C 5'],
];

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};
const sum = (xs: number[]): number => xs.reduce((a, b) => a + b, 0);

/** Per pipeline (overall and per question kind): median and total tokens, recall at each budget. */
export function summarise(rows: readonly Json[]): Json {
  const stats = (subset: readonly Json[]): Json =>
    Object.fromEntries(
      PIPELINES.map(([key]) => {
        const ms = subset.map((r) => r[key] as Measured);
        return [
          key,
          {
            n: ms.length,
            median_tokens: median(ms.map((m) => m.tokens)),
            total_tokens: sum(ms.map((m) => m.tokens)),
            ...Object.fromEntries(BUDGETS.map((b) => [`recall_${b}`, ms.filter((m) => within(m, b)).length / (ms.length || 1)])),
            recall_any: ms.filter((m) => m.answer_at !== null).length / (ms.length || 1),
          },
        ];
      }),
    );
  const kinds = [...new Set(rows.map((r) => r.kind as string))];
  const overall = stats(rows);
  const savings = rows.map((r) => 1 - (r.gortex_gcx as Measured).tokens / (r.gortex_json as Measured).tokens);
  return {
    overall,
    by_kind: Object.fromEntries(kinds.map((k) => [k, stats(rows.filter((r) => r.kind === k))])),
    top_hit_gold: rows.filter((r) => r.top_hit_gold).length / (rows.length || 1),
    ratio_rg_read_vs_json: overall.rg_read.median_tokens / overall.gortex_json.median_tokens,
    ratio_rg_read_vs_gcx: overall.rg_read.median_tokens / overall.gortex_gcx.median_tokens,
    ratio_rg_context_vs_json: overall.rg_context.median_tokens / overall.gortex_json.median_tokens,
    gcx_saving_median: median(savings),
    gcx_saving_total: 1 - overall.gortex_gcx.total_tokens / overall.gortex_json.total_tokens,
  };
}

const pct = (x: number): string => `${(x * 100).toFixed(0)} %`;
const int = (x: number): string => (Number.isNaN(x) ? '–' : Math.round(x).toLocaleString('en-US'));
const ratio = (x: number): string => (Number.isFinite(x) ? `${x.toFixed(1)}×` : '–');
const mark = (m: Measured): string => BUDGETS.map((b) => (within(m, b) ? '✓' : '✗')).join('');

function section(r: Json, m: Json, rawName: string): string {
  const s = r.summary as Json;
  const o = s.overall as Json;
  // Met per wire format: ≥ 10× fewer median tokens and recall at every budget at least rg + read's.
  const met = (key: string, r10: number): string =>
    r10 >= 10 && BUDGETS.every((b) => o[key][`recall_${b}`] >= o.rg_read[`recall_${b}`]) ? 'met' : '**not met**';
  const kinds = Object.keys(s.by_kind);
  const lines = [
    '## Tokens',
    '',
    `Corpus **${r.corpus}** (${r.files?.total ?? '?'} files, ${r.nodes?.total ?? '?'} nodes), ${r.questions.length} questions ` +
      `(\`benches/token-questions.json\`: ${kinds.map((k) => `${(r.questions as Json[]).filter((q) => q.kind === k).length} ${k}`).join(', ')}), ` +
      `${m.date.slice(0, 10)}. Tokens are **${r.tokenizer}** counts of the text an agent reads. Raw numbers in \`${rawName}\`. ` +
      'Produced by `npm run bench:tokens`.',
    '',
    '- **gortex**: in-process `callTool` — `search_symbols` (limit 5), then `get_symbol_source` of the top hit, plus `get_callers` of it for ' +
      '"what calls it" questions; the text is what an MCP client receives (`JSON.stringify` of the result, or GCX1 via `encodeGcx`). ' +
      'The answer counts when a gold node id has been read within the budget.',
    `- **rg + read**: \`rg -n -F KEYWORD\` (${r.ripgrep}, sorted by path), then every matched file read whole (each under a one-line file-name header). ` +
      '**rg -C 5**: `rg -n -C 5 -F KEYWORD`, context only. The answer counts when the gold symbol\'s defining line, at its path and line ' +
      'number, has been read within the budget. The keyword is the identifier for identifier questions and one word of the question for ' +
      'natural-language ones.',
    '',
    `| pipeline | median tokens | total tokens | recall@2k | recall@10k | answer anywhere |`,
    '|---|---:|---:|---:|---:|---:|',
    ...PIPELINES.map(([k, label]) => {
      const p = o[k] as Json;
      return `| ${label} | ${int(p.median_tokens)} | ${int(p.total_tokens)} | ${pct(p.recall_2000)} | ${pct(p.recall_10000)} | ${pct(p.recall_any)} |`;
    }),
    '',
    '| question kind | pipeline | median tokens | recall@2k | recall@10k |',
    '|---|---|---:|---:|---:|',
    ...kinds.flatMap((k) =>
      PIPELINES.map(([key, label]) => {
        const p = s.by_kind[k][key] as Json;
        return `| ${k} (${p.n}) | ${label} | ${int(p.median_tokens)} | ${pct(p.recall_2000)} | ${pct(p.recall_10000)} |`;
      }),
    ),
    '',
    'Against the targets:',
    '',
    `- ≥ 10× fewer tokens than rg + read at equal or better recall: median rg + read / gortex = **${ratio(s.ratio_rg_read_vs_json)}** (JSON), ` +
      `**${ratio(s.ratio_rg_read_vs_gcx)}** (GCX1); recall ${BUDGETS.map((b) => `@${b / 1000}k ${pct(o.gortex_json[`recall_${b}`])} (JSON) / ${pct(o.gortex_gcx[`recall_${b}`])} (GCX1) vs ${pct(o.rg_read[`recall_${b}`])}`).join(', ')} → ` +
      `JSON ${met('gortex_json', s.ratio_rg_read_vs_json)}, GCX1 ${met('gortex_gcx', s.ratio_rg_read_vs_gcx)}. (Against rg -C 5: ${ratio(s.ratio_rg_context_vs_json)} on JSON.)`,
    `- GCX1 ≥ 25 % fewer tokens than JSON: median per-question saving **${pct(s.gcx_saving_median)}**, over all questions ` +
      `${pct(s.gcx_saving_total)} → ${s.gcx_saving_median >= 0.25 ? 'met' : '**not met**'}.`,
    `- JSON at 10× would mean at most ${int(o.rg_read.median_tokens / 10)} tokens for the median question; GCX1, the same rows without ` +
      `the field names repeated on each, takes ${int(o.gortex_gcx.median_tokens)}, and the source text read is the same in both. ` +
      'So JSON cannot reach 10× without leaving out what GCX1 carries; GCX1 is what known coding clients receive by default, ' +
      'JSON is what `format: "json"` asks for. `search_symbols` hits carry their score breakdown (`signals`) only with `explain: true`.',
    `- The top search hit is a gold symbol on ${pct(s.top_hit_gold)} of the questions (the source read follows that hit).`,
    '- The natural questions come from the concept tier of the retrieval fixture, the set the sentence weighting of ' +
      '`search_symbols` was chosen on; "Retrieval" above also reports a held-out set written without looking at the ranking.',
    '',
    'Per question (tokens; ✓/✗ = answer within 2k / 10k):',
    '',
    '| question | rg keyword | gortex calls | top hit gold | JSON | GCX1 | rg + read (files) | rg -C 5 |',
    '|---|---|---|:-:|---:|---:|---:|---:|',
    ...(r.questions as Json[]).map(
      (q) =>
        `| ${q.id}: \`${q.query}\` | \`${q.rg}\` | ${(q.calls as string[]).length} | ${q.top_hit_gold ? '✓' : '✗'} | ` +
        `${int(q.gortex_json.tokens)} ${mark(q.gortex_json)} | ${int(q.gortex_gcx.tokens)} ${mark(q.gortex_gcx)} | ` +
        `${int(q.rg_read.tokens)} (${q.rg_files}) ${mark(q.rg_read)} | ${int(q.rg_context.tokens)} ${mark(q.rg_context)} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

async function main(): Promise<void> {
  await benchMain({ heading: 'Tokens', rawPrefix: 'tokens', options: parseArgs(process.argv.slice(2)), run, section });
}

if (require.main === module) {
  main().catch((error: unknown) => {
    process.stderr.write(`bench:tokens: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exit(1);
  });
}
