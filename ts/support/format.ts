/** Plain-text formatting helpers for CLI summaries (no colours, no dependencies). */

/** `1234567` → `1,234,567`. */
export function formatCount(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

/** `1536` → `1.5 KiB`. */
export function formatBytes(bytes: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(value >= 100 ? 0 : 1)} ${units[unit]}`;
}

/**
 * A memory size as people write it — `512M`, `512MB`, `512MiB`, `1.5G`, `2GiB`, `800000000B` or
 * a plain byte count — in bytes (K/M/G/T are powers of 1024, as for RSS), or undefined when it is
 * not one (a fraction needs a unit).
 */
export function parseByteSize(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(?:([kmgt])(?:i?b)?|b)?\s*$/i.exec(text);
  if (!m) return undefined;
  const unit = m[2]?.toLowerCase();
  if (unit === undefined && m[1]!.includes('.')) return undefined;
  const power = unit === undefined ? 0 : ['k', 'm', 'g', 't'].indexOf(unit) + 1;
  const bytes = Math.round(Number(m[1]) * 1024 ** power);
  return Number.isFinite(bytes) && bytes > 0 ? bytes : undefined;
}

/** `1234` → `1.23 s`; `87` → `87 ms`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)} s`;
  const minutes = Math.floor(ms / 60_000);
  return `${minutes} min ${((ms % 60_000) / 1000).toFixed(0)} s`;
}

/** Entries of a count map, largest first (ties by name). */
export function sortedCounts(counts: Record<string, number>): [string, number][] {
  return Object.entries(counts).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

/** `{calls: 3, imports: 1}` → `calls 3 · imports 1` (largest first, at most `limit` shown). */
export function formatCounts(counts: Record<string, number>, limit = Infinity): string {
  const entries = sortedCounts(counts);
  if (entries.length === 0) return '—';
  const shown = entries.slice(0, limit).map(([name, count]) => `${name} ${formatCount(count)}`);
  if (entries.length > limit) shown.push(`+${entries.length - limit} more`);
  return shown.join(' · ');
}

/** Up to `limit` items as indented lines, with an "… and N more" line when cut. */
export function listSome<T>(items: readonly T[], limit: number, render: (item: T) => string): string[] {
  const lines = items.slice(0, limit).map((item) => `    ${render(item)}`);
  if (items.length > limit) lines.push(`    … and ${formatCount(items.length - limit)} more`);
  return lines;
}
