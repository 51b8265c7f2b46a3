/**
 * Readable, plain-text renderings of query results for the CLI (`--json` prints the payload
 * unchanged instead). Every renderer takes the engine's JSON as-is.
 */
/* eslint-disable @typescript-eslint/no-explicit-any */
import { formatCount } from '../support/format';

type Json = Record<string, any>;

/** `path:line` of a node summary. */
function at(node: Json): string {
  return node.start_line ? `${node.file_path}:${node.start_line}` : node.file_path || '(external)';
}

/** `path:line` of a `search_symbols` row (rows name them `path` and `line`). */
function atRow(row: Json): string {
  return row.line ? `${row.path}:${row.line}` : row.path || '(external)';
}

/** `kind qualified  path:line`, aligned by the caller. */
function nodeLine(node: Json): string {
  return `${String(node.kind).padEnd(10)} ${node.qual_name}  ${at(node)}`;
}

function caveatLines(result: Json): string[] {
  const lines: string[] = [];
  if (result.caveat) lines.push('', `caveat (${result.caveat.class}): ${result.caveat.message}`);
  if (result.tier_filtered) {
    const t = result.tier_filtered;
    lines.push(`${formatCount(t.edges_below_min_tier)} rows below min_tier hidden (strongest available: ${t.max_available_tier})`);
  }
  if (result.name_only_suppressed) {
    lines.push(`${formatCount(result.name_only_suppressed)} name-only (text_matched) rows hidden because stronger evidence exists; pass --min-tier text_matched to see them`);
  }
  return lines;
}

function truncation(result: Json, shown: number): string[] {
  return result.truncated ? [`… ${formatCount(result.total ?? shown)} in all; raise --limit to see more`] : [];
}

function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

/** `gortex search`. */
export function renderSearch(result: Json): string {
  const rows: Json[] = result.results ?? [];
  if (rows.length === 0) return 'No symbols matched.';
  const lines = table(rows.map((r, i) => [`${i + 1}.`, String(r.kind), String(r.qualified), atRow(r), Number(r.score).toFixed(2)]));
  if (result.decomposed) lines.unshift('(no exact match; searched the words of the query instead)');
  lines.push(...truncation(result, rows.length));
  return lines.join('\n');
}

/** `gortex grep`: `path:line:column: text  [symbol]`. */
export function renderGrep(result: Json): string {
  const hits: Json[] = result.hits ?? [];
  if (hits.length === 0) return 'No matches.';
  const lines = hits.map((h) => `${h.path}:${h.line}:${h.column}: ${h.text}${h.symbol_name ? `  [${h.symbol_name}]` : ''}`);
  if (result.truncated) lines.push(`… stopped at ${formatCount(hits.length)} hits; raise --limit to see more`);
  return lines.join('\n');
}

function renderSymbol(r: Json): string {
  const s = r.node;
  const lines = [`${s.kind} ${s.qual_name}`, `  ${at(s)}${s.end_line && s.end_line !== s.start_line ? `-${s.end_line}` : ''}`, `  id: ${s.id}`];
  if (s.signature) lines.push(`  ${s.signature}`);
  if (r.doc) lines.push(`  doc: ${r.doc}`);
  if (r.parent) lines.push(`  in: ${r.parent.kind} ${r.parent.qual_name}`);
  const counts = (m: Json): string => Object.entries(m ?? {}).map(([k, v]) => `${k} ${v}`).join(' · ') || '—';
  lines.push(`  incoming: ${counts(r.edges_in)}`, `  outgoing: ${counts(r.edges_out)}${r.unresolved_out ? ` · unresolved ${r.unresolved_out}` : ''}`);
  return lines.join('\n');
}

function renderCallers(r: Json): string {
  const rows: Json[] = r.callers ?? [];
  const lines = [`callers of ${r.target.qual_name} (${at(r.target)}):`];
  if (rows.length === 0) lines.push('  none found');
  lines.push(
    ...table(rows.map((c) => [`  ${'·'.repeat(c.depth)}`, String(c.caller.kind), String(c.caller.qual_name), `${c.path}:${(c.lines ?? []).join(',')}`, String(c.origin)])),
  );
  return [...lines, ...truncation(r, rows.length), ...caveatLines(r)].join('\n');
}

function renderCallChain(r: Json): string {
  const lines = [`calls from ${r.root.qual_name} (${at(r.root)}):`];
  const names = new Map<string, string>((r.nodes ?? []).map((n: Json) => [n.node.id, n.node.qual_name]));
  const calls: Json[] = r.calls ?? [];
  if (calls.length === 0) lines.push('  no resolved calls');
  lines.push(...table(calls.map((c) => [`  ${'·'.repeat(c.depth)}`, names.get(c.from) ?? c.from, '→', names.get(c.to) ?? c.to, `L${c.line}`, String(c.origin)])));
  const unresolved: Json[] = r.unresolved ?? [];
  if (unresolved.length > 0) {
    lines.push('', `unresolved calls (${formatCount(r.unresolved_total ?? unresolved.length)}):`);
    lines.push(...table(unresolved.map((u) => [`  ${names.get(u.from) ?? u.from}`, '→', String(u.target), `L${u.line}`, `${u.candidates} candidates`])));
  }
  return [...lines, ...truncation(r, calls.length), ...caveatLines(r)].join('\n');
}

function renderUsages(r: Json): string {
  const rows: Json[] = r.usages ?? [];
  // A row's `from` is the using node's id; the node is in `nodes`.
  const users = new Map<string, Json>((r.nodes ?? []).map((n: Json) => [n.id, n]));
  const lines = [`usages of ${r.target.qual_name} (${at(r.target)}):`];
  if (rows.length === 0) lines.push('  none found');
  lines.push(...table(rows.map((u) => [`  ${u.context}`, String(users.get(u.from)?.qual_name ?? u.from), `${u.path}:${u.line}`, String(u.origin)])));
  return [...lines, ...truncation(r, rows.length), ...caveatLines(r)].join('\n');
}

function renderDependencies(key: 'dependencies' | 'dependents'): (r: Json) => string {
  return (r) => {
    // Rows are the nodes themselves (under `nodes`), each with its link.
    const rows: Json[] = r.nodes ?? [];
    const lines = [`${key} of ${r.target.qual_name} (${at(r.target)}, ${r.mode}):`];
    if (rows.length === 0) lines.push('  none found');
    lines.push(...table(rows.map((d) => [`  ${'·'.repeat(d.depth)}`, String(d.kind), String(d.qual_name), at(d), (d.edge_kinds ?? []).join(','), String(d.origin)])));
    return [...lines, ...truncation(r, rows.length), ...caveatLines(r)].join('\n');
  };
}

function renderImplementations(r: Json): string {
  const rows: Json[] = r.implementations ?? [];
  const lines = [`implementations:`];
  if (rows.length === 0) lines.push('  none found');
  lines.push(...table(rows.map((i) => [`  ${nodeLine(i.node)}`, `implements ${i.implements}`, String(i.origin)])));
  return [...lines, ...truncation(r, rows.length), ...caveatLines(r)].join('\n');
}

const RENDERERS: Record<string, (r: Json) => string> = {
  get_symbol: renderSymbol,
  get_callers: renderCallers,
  get_call_chain: renderCallChain,
  find_usages: renderUsages,
  get_dependencies: renderDependencies('dependencies'),
  get_dependents: renderDependencies('dependents'),
  find_implementations: renderImplementations,
};

/** The renderer of a traversal tool (pretty JSON for tools without one). */
export function renderTool(tool: string): (result: Json) => string {
  return RENDERERS[tool] ?? ((r) => JSON.stringify(r, null, 2));
}
