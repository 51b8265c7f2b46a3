/** Durations as users write them in environment variables. */

/** Parses `90s`, `30m`, `2h`, `7d`, `2w`, `500ms`, or a number of seconds, into milliseconds; undefined when it is none of those. */
export function parseDuration(text: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d|w)?\s*$/.exec(text);
  if (!m) return undefined;
  const n = Number(m[1]);
  const unit = m[2] ?? 's';
  return Math.round(n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000, w: 604_800_000 }[unit]!);
}
