/** Text renderers of the memory, feedback and savings verbs. */
import { formatCount } from '../support/format';
import { more, table } from './render-table';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/** One memory as a block: header line, text, anchors. */
function memoryBlock(m: Json): string[] {
  const head = `#${m.id} ${m.kind}${m.title ? ` — ${m.title}` : ''}${m.tags?.length ? `  [${m.tags.join(', ')}]` : ''}${m.scope === 'global' ? '  (global)' : ''}  ${String(m.updated).slice(0, 10)}`;
  const lines = [head, ...String(m.text).split('\n').map((l) => `    ${l}`)];
  for (const a of m.anchors ?? []) lines.push(`    ↳ ${a.kind} ${a.id}${a.status === 'ok' ? '' : `  (${a.status}${a.was ? ` from ${a.was}` : ''})`}`);
  if (m.flagged) lines.push(`    ! ${m.flagged}`);
  if (m.why?.length) lines.push(`    why: ${m.why.join('; ')}`);
  return lines;
}

/** `surface_memories` / `list_notes`. */
export function renderMemories(r: Json): string {
  const rows: Json[] = r.memories ?? r.notes ?? [];
  if (rows.length === 0) return 'No memories match. Store one with: gortex memory add "<text>" [--symbol <id>] [--file <path>]';
  return [...rows.flatMap((m) => [...memoryBlock(m), '']), ...more(rows.length, r.total)].join('\n').trimEnd();
}

/** `store_memory` / `save_note` / `edit_memory`. */
export function renderStored(r: Json): string {
  const m = r.stored ?? r.saved ?? r.edited;
  return [`${r.edited ? 'Edited' : 'Stored'} memory #${m.id}.`, ...memoryBlock(m)].join('\n');
}

/** `forget_memory`. */
export function renderForgotten(r: Json): string {
  const lines = [r.forgotten.length > 0 ? `Forgot ${r.forgotten.map((id: number) => `#${id}`).join(', ')}.` : 'Nothing forgotten.'];
  if (r.unknown_ids?.length) lines.push(`No memory with id ${r.unknown_ids.join(', ')}.`);
  return lines.join('\n');
}

/** `feedback action=query`. */
export function renderFeedbackReport(r: Json): string {
  if (r.ratings === 0) return `No feedback recorded for ${r.scope}${r.since ? ` since ${r.since}` : ''}.`;
  const pct = (v: number | undefined) => (v === undefined ? '—' : `${Math.round(v * 100)}%`);
  const lines = [`Feedback for ${r.scope}: ${formatCount(r.ratings)} ratings — precision ${pct(r.precision)}, recall ${pct(r.recall)}`, ''];
  lines.push(...table([['tool', 'useful', 'not useful', 'wrong', 'missing', 'precision', 'recall'], ...r.by_tool.map((t: Json) => [t.tool, String(t.useful), String(t.not_useful), String(t.wrong), String(t.missing), pct(t.precision), pct(t.recall)])]));
  for (const [title, rows] of [['Most useful', r.most_useful], ['Most missed', r.most_missed], ['Most often wrong', r.most_wrong]] as const) {
    if (rows.length === 0) continue;
    lines.push('', `${title}:`, ...rows.map((x: Json) => `  ${String(x.count).padStart(4)}  ${x.id}${x.in_graph ? '' : '  (no longer in the graph)'}`));
  }
  return lines.join('\n');
}

/** `gortex savings`. */
export function renderSavings(r: Json, verbose: boolean): string {
  if (r.total.calls === 0) return `No answers booked yet${r.since ? ` since ${r.since}` : ''} (ledger: ${r.ledger}).`;
  const pct = (x: Json) => `${Math.round(x.saved_ratio * 100)}%`;
  const dollars = (x: Json) => (x.saved_usd === undefined ? [] : [`$${x.saved_usd.toFixed(2)}`]);
  const head = ['', 'calls', 'returned', 'plain reads', 'saved', '', ...(r.total.saved_usd === undefined ? [] : ['usd'])];
  const line = (key: string, x: Json) => [key, formatCount(x.calls), formatCount(x.returned_tokens), formatCount(x.baseline_tokens), formatCount(x.saved_tokens), pct(x), ...dollars(x)];
  const lines = [
    `Token savings${r.since ? ` since ${r.since}` : ''}: ${formatCount(r.total.saved_tokens)} tokens saved (${pct(r.total)} of ${formatCount(r.total.baseline_tokens)}) over ${formatCount(r.total.calls)} answers`,
    '',
    ...table([head, line('total', r.total), ...r.by_tool.map((x: Json) => line(x.key, x))]),
  ];
  if (verbose) {
    lines.push('', 'By repository:', ...table([head, ...r.by_repo.map((x: Json) => line(x.key, x))]));
    lines.push('', 'By day:', ...table([head, ...r.by_day.map((x: Json) => line(x.key, x))]));
  }
  lines.push('', `Tokens estimated at 4 bytes; a plain read is each file an answer points into, read whole. Ledger: ${r.ledger}`);
  return lines.join('\n');
}
