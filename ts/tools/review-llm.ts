/**
 * The review's model passes, run only when the user configured a model (`llm.ts`): the critic
 * (`critique_review`) shows the model each finding with the code around it and drops the ones it
 * shows cannot happen, with its reason; `use_llm` asks the model for defects in the changed lines
 * and folds in those it can be relocated to an exact line of the file (its quoted line found in
 * the changed ranges), capped at `warning` — a model's finding is not graph-grounded, so it asks
 * for review but never blocks. A failing model never loses a deterministic finding.
 */
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ToolContext } from '../workspace/context';
import { readSource } from '../workspace/overlays';
import { LLM_HOWTO, llmOf, type Llm } from './llm';
import { ToolInputError } from './registry';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** Findings per critic request, lines of code shown around each, and characters of changed code sent for `use_llm`. */
const CRITIC_BATCH = 20;
const CONTEXT_LINES = 6;
const MAX_PROMPT_CHARS = 24_000;

const RANK: Record<string, number> = { info: 0, warning: 1, error: 2, critical: 3 };

/** Review verdicts, mildest first. */
export const REVIEW_ORDER = ['APPROVE', 'REVIEW', 'BLOCK'] as const;

/** The worse of two verdicts of `order` (mildest first). */
export const worse = <T extends string>(order: readonly T[], a: T, b: T): T => (order.indexOf(b) > order.indexOf(a) ? b : a);

/** BLOCK / REVIEW / APPROVE of a set of findings (critical or error → BLOCK, warning → REVIEW). */
export function verdictOf(findings: readonly Json[]): 'BLOCK' | 'REVIEW' | 'APPROVE' {
  const worst = Math.max(0, ...findings.map((f) => RANK[f.severity as string] ?? 0));
  return worst >= RANK.error! ? 'BLOCK' : worst >= RANK.warning! ? 'REVIEW' : 'APPROVE';
}

/** The file's lines (overlay first, then the disk), or undefined when it cannot be read. */
function linesOf(ctx: ToolContext, rel: string): string[] | undefined {
  try {
    return readSource(ctx, rel, () => fs.readFileSync(path.join(ctx.root, rel))).toString('utf8').split('\n').map((l) => l.replace(/\r$/, ''));
  } catch {
    return undefined;
  }
}

/** Numbered lines `from..to` (1-based), the `mark`ed one flagged `>>`. */
function numbered(lines: readonly string[], from: number, to: number, mark?: number): string {
  const out: string[] = [];
  for (let n = Math.max(1, from); n <= Math.min(lines.length, to); n++) out.push(`${n === mark ? '>>' : '  '}${String(n).padStart(5)} | ${lines[n - 1]}`);
  return out.join('\n');
}

/** `critique_review`: the model's second pass over `findings`, or every finding kept when no model is configured. */
export async function critiqueFindings(ctx: ToolContext, findings: readonly Json[]): Promise<Json> {
  const llm = llmOf(ctx);
  if (!llm) {
    return {
      kept: findings,
      dropped: [],
      verdict: verdictOf(findings),
      critic: 'none',
      note: `no language model is configured, so every finding is kept (they are already grounded in the graph by review); to have a model critique them, ${LLM_HOWTO}`,
    };
  }
  const decisions = new Map<number, { keep: boolean; reason: string }>();
  let failure: string | undefined;
  for (let start = 0; start < findings.length && !failure; start += CRITIC_BATCH) {
    const batch = findings.slice(start, start + CRITIC_BATCH);
    const shown = batch.map((f, i) => {
      const lines = typeof f.path === 'string' ? linesOf(ctx, f.path) : undefined;
      const code = lines && typeof f.line === 'number' ? numbered(lines, f.line - CONTEXT_LINES, f.line + CONTEXT_LINES, f.line) : String(f.source ?? '');
      return `### Finding ${start + i}\nrule: ${f.rule}\nseverity: ${f.severity}\nat: ${f.path}:${f.line}\nmessage: ${f.message}\n${f.grounding ? `graph: ${f.grounding}\n` : ''}\`\`\`\n${code}\n\`\`\``;
    });
    try {
      const answer = (await llm.json([
        {
          role: 'system',
          content:
            'You check static-analysis findings for false positives. Each finding names its rule, message and location, with the code around it (the flagged line marked >>). ' +
            'Keep a finding unless the code shown proves it cannot happen or it does not match its rule. Answer only JSON: {"decisions":[{"index":<finding number>,"keep":true|false,"reason":"<one sentence>"}]}',
        },
        { role: 'user', content: shown.join('\n\n') },
      ])) as Json;
      for (const d of Array.isArray(answer?.decisions) ? answer.decisions : []) {
        const i = Number(d?.index);
        if (Number.isInteger(i) && i >= start && i < start + batch.length && typeof d.keep === 'boolean') decisions.set(i, { keep: d.keep, reason: String(d.reason ?? '').slice(0, 500) });
      }
    } catch (error) {
      if (!(error instanceof ToolInputError)) throw error;
      failure = error.message;
    }
  }
  const kept: Json[] = [];
  const dropped: Json[] = [];
  findings.forEach((f, i) => {
    const d = decisions.get(i);
    if (d && !d.keep) dropped.push({ finding: f, reason: d.reason });
    else kept.push(d ? { ...f, critic: d.reason } : f);
  });
  const undecided = findings.length - decisions.size;
  return {
    kept,
    dropped,
    verdict: verdictOf(kept),
    critic: { model: llm.model, endpoint: llm.host },
    ...(undecided > 0 ? { undecided, note: failure ? `the model failed (${failure}); findings it did not decide on are kept` : 'findings the model did not decide on are kept' } : {}),
  };
}

/** The changed ranges of each reviewed file. */
interface Changed {
  path: string;
  lines: [number, number][];
}

/** A finding's fingerprint for a model finding: rule, file and line text. */
function fingerprint(rel: string, text: string): string {
  return createHash('sha256').update(`llm\0${rel}\0${text.trim()}`).digest('hex').slice(0, 16);
}

/**
 * `use_llm`: the model's findings on the changed lines, each relocated to the exact line it quotes
 * (within the changed ranges, nearest the line it named); what cannot be relocated is counted, not
 * reported. Returns the findings and what to say about the pass.
 */
export async function modelFindings(ctx: ToolContext, changed: readonly Changed[], existing: readonly Json[]): Promise<{ findings: Json[]; llm: Json }> {
  const llm = llmOf(ctx);
  if (!llm) return { findings: [], llm: { used: false, reason: `no language model is configured; ${LLM_HOWTO}` } };
  const shown: string[] = [];
  const files = new Map<string, { lines: string[]; ranges: [number, number][] }>();
  let budget = MAX_PROMPT_CHARS;
  let omitted = 0;
  for (const f of changed) {
    const lines = linesOf(ctx, f.path);
    if (!lines) continue;
    const ranges = mergeRanges(f.lines);
    const text = ranges.map(([a, b]) => numbered(lines, a - 2, b + 2)).join('\n  ...\n');
    if (text.length > budget) {
      omitted++;
      continue;
    }
    budget -= text.length;
    files.set(f.path, { lines, ranges });
    shown.push(`### ${f.path}\n\`\`\`\n${text}\n\`\`\``);
  }
  if (shown.length === 0) return { findings: [], llm: { used: false, reason: 'no changed lines to show the model', model: llm.model } };
  let answer: Json;
  try {
    answer = await ask(llm, shown.join('\n\n'));
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    return { findings: [], llm: { used: false, model: llm.model, error: error.message } };
  }
  const taken = new Set(existing.map((f) => `${f.path}:${f.line}`));
  const out: Json[] = [];
  let unlocated = 0;
  for (const raw of Array.isArray(answer?.findings) ? answer.findings : []) {
    const file = files.get(String(raw?.path ?? ''));
    const quote = typeof raw?.line_text === 'string' ? raw.line_text.trim() : '';
    const line = file && quote ? relocate(file, quote, Number(raw.line)) : undefined;
    if (!file || line === undefined || typeof raw.message !== 'string') {
      unlocated++;
      continue;
    }
    const at = `${raw.path}:${line}`;
    if (taken.has(at)) continue;
    taken.add(at);
    out.push({
      rule: 'llm',
      category: 'model',
      severity: raw.severity === 'info' ? 'info' : 'warning',
      path: raw.path,
      line,
      end_line: line,
      column: Math.max(0, file.lines[line - 1]!.search(/\S/)),
      message: raw.message.slice(0, 500).replace(/\.$/, ''),
      fix: `check it against the code: a finding of ${llm.model}, not grounded in the graph`,
      source: file.lines[line - 1]!.trim(),
      fingerprint: fingerprint(raw.path, file.lines[line - 1]!),
      grounded: false,
    });
  }
  return { findings: out, llm: { used: true, model: llm.model, findings: out.length, ...(unlocated > 0 ? { unlocated } : {}), ...(omitted > 0 ? { files_not_shown: omitted } : {}) } };
}

async function ask(llm: Llm, code: string): Promise<Json> {
  return llm.json([
    {
      role: 'system',
      content:
        'You review changed code for real defects: null dereferences, races, injection, leaked resources, wrong conditions, lost errors. Report only defects the code shown makes likely, not style. ' +
        'Quote the exact text of the line each defect is on. Answer only JSON: {"findings":[{"path":"<file>","line":<number>,"line_text":"<exact line>","severity":"warning"|"info","message":"<one sentence>"}]}',
    },
    { role: 'user', content: code },
  ]);
}

/** Sorted, merged copies of `ranges`. */
function mergeRanges(ranges: readonly [number, number][]): [number, number][] {
  const sorted = [...ranges].sort((a, b) => a[0] - b[0]);
  const out: [number, number][] = [];
  for (const [a, b] of sorted) {
    const last = out[out.length - 1];
    if (last && a <= last[1] + 3) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
}

/** The line of `file` whose text is `quote`, inside the changed ranges (±2), nearest `hint`. */
function relocate(file: { lines: string[]; ranges: [number, number][] }, quote: string, hint: number): number | undefined {
  const candidates: number[] = [];
  for (const [a, b] of file.ranges) for (let n = Math.max(1, a - 2); n <= Math.min(file.lines.length, b + 2); n++) if (file.lines[n - 1]!.trim() === quote) candidates.push(n);
  if (candidates.length === 0) return undefined;
  const target = Number.isFinite(hint) ? hint : candidates[0]!;
  return candidates.sort((x, y) => Math.abs(x - target) - Math.abs(y - target))[0];
}

/**
 * `triage_prs use_llm`: one compact model pass over the deterministic ranking (each PR's title,
 * risk and top priorities) that re-orders it with a rationale per PR. PRs the model leaves out
 * follow in their deterministic order; a failing model leaves the ranking as it was.
 */
export async function modelRanking(ctx: ToolContext, rows: readonly Json[]): Promise<{ rows: Json[]; llm: Json }> {
  const llm = llmOf(ctx);
  if (!llm) return { rows: [...rows], llm: { used: false, reason: `no language model is configured; ${LLM_HOWTO}` } };
  if (rows.length < 2) return { rows: [...rows], llm: { used: false, model: llm.model, reason: 'fewer than two PRs: nothing to re-rank' } };
  const summary = rows.map((r) => ({
    number: r.number,
    title: String(r.title ?? '').slice(0, 200),
    risk: `${r.level} ${r.score}`,
    changed: r.changed,
    dependents: r.dependents,
    top: (r.top_priorities as Json[]).map((p) => `${p.id} (${p.callers} callers)`),
  }));
  let answer: Json;
  try {
    answer = await llm.json([
      {
        role: 'system',
        content:
          'You order pull requests for review: most urgent first, weighing graph risk, what they touch and what their titles say. ' +
          'Answer only JSON: {"order":[{"number":<PR number>,"rationale":"<one sentence>"}]}',
      },
      { role: 'user', content: JSON.stringify(summary) },
    ]);
  } catch (error) {
    if (!(error instanceof ToolInputError)) throw error;
    return { rows: [...rows], llm: { used: false, model: llm.model, error: error.message } };
  }
  const byNumber = new Map(rows.map((r) => [r.number, r]));
  const out: Json[] = [];
  for (const o of Array.isArray(answer?.order) ? answer.order : []) {
    const row = byNumber.get(Number(o?.number));
    if (!row) continue;
    byNumber.delete(row.number);
    out.push({ ...row, rationale: String(o.rationale ?? '').slice(0, 500) });
  }
  const ranked = out.length;
  out.push(...rows.filter((r) => byNumber.has(r.number)));
  return { rows: out, llm: { used: true, model: llm.model, ranked, ...(ranked < rows.length ? { left_in_graph_order: rows.length - ranked } : {}) } };
}
