/** Pieces the CLI's text renderers share: aligned tables, "more rows" notes, node locations. */
import { formatCount } from '../support/format';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = Record<string, any>;

/** `path:line` of a node summary. */
export function at(n: Json): string {
  return n.start_line ? `${n.file_path}:${n.start_line}` : n.file_path || '(external)';
}

/** Rows with their columns padded to align (the last column is left ragged). */
export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, i) => (widths[i] = Math.max(widths[i] ?? 0, cell.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ').trimEnd());
}

/** A note when `limit` cut rows. */
export function more(shown: number, total: number): string[] {
  return total > shown ? [`… ${formatCount(total)} in all; raise --limit to see more`] : [];
}
