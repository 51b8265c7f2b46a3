/** Text renderers of the git-history `analyze` kinds (`gortex analyze --kind blame|ownership|…`). */
import { formatCount } from '../support/format';
import { at, more, table } from './render-table';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

/** `2024-05-01 a1b2c3d4e5f6 Alice: summary`. */
function commit(c: Json | null | undefined): string {
  return c ? `${c.date} ${c.sha} ${c.author}: ${c.summary}` : '(uncommitted)';
}

function authors(list: Json[]): string {
  return list.map((a) => `${a.name} ${Math.round(a.share * 100)} %`).join(', ');
}

/** The history line every git answer ends with. */
function footer(h: Json): string {
  const dirty = h.uncommitted_files ? `; ${formatCount(h.uncommitted_files)} files differ from HEAD` : '';
  return `history: ${formatCount(h.commits)} mainline commits since ${h.since} up to ${h.head} (${h.update})${dirty}`;
}

/** One renderer per history kind. */
export const HISTORY_RENDERERS: Record<string, (r: Json) => string[]> = {
  blame: (r) => [
    ...(r.file
      ? [`${r.file.path}: ${formatCount(r.file.lines)} lines, ${formatCount(r.file.commits)} commits, last ${commit(r.file.last_change)}`, `  ${authors(r.file.authors)}`]
      : []),
    ...table((r.symbols as Json[]).map((s) => [s.last_change?.date ?? 'uncommitted', `${s.commits} commits`, s.qual_name, at(s), authors(s.authors)])),
    ...more(r.symbols.length, r.total),
    footer(r.history),
  ],
  ownership: (r) => [
    ...table([
      ['path', 'files', 'lines', 'bus', 'codeowners', 'authors'],
      ...(r.rows as Json[]).map((x) => [x.path, String(x.files), formatCount(x.lines), String(x.bus_factor), x.codeowners.join(' ') || '-', authors(x.authors.slice(0, 3))]),
    ]),
    ...more(r.rows.length, r.total),
    r.codeowners_file ? `CODEOWNERS: ${r.codeowners_file}` : 'no CODEOWNERS file',
    ...(r.codeowners_problems ?? []).map((p: string) => `CODEOWNERS line ${p}`),
    footer(r.history),
  ],
  stale_code: (r) => [
    ...table((r.symbols as Json[]).map((s) => [`${formatCount(s.age_days)} days`, `fan-in ${s.fan_in}`, s.qual_name, at(s), commit(s.last_change)])),
    ...more(r.symbols.length, r.total),
    `${formatCount(r.total)} of ${formatCount(r.examined)} symbols unchanged as of ${r.as_of}`,
    footer(r.history),
  ],
  stale_flags: (r) => [
    ...table((r.flags as Json[]).map((f) => [`${formatCount(f.age_days)} days`, f.provider, f.flag, `${f.checks} checks`, f.stale ? 'stale' : '', commit(f.last_touched)])),
    ...more(r.flags.length, r.total),
    `${formatCount(r.stale)} of ${formatCount(r.examined)} flags untouched for ${formatCount(r.days)} days as of ${r.as_of}${r.unscored.length > 0 ? `; not in git: ${(r.unscored as string[]).join(', ')}` : ''}`,
    footer(r.history),
  ],
  churn: (r) => [
    ...table((r.rows as Json[]).map((x) => [`${x.commits} commits`, `${x.authors} authors`, x.path ?? x.qual_name, x.path ? '' : at(x), x.last_change.date])),
    ...more(r.rows.length, r.total),
    ...(r.since ? [`since ${r.since}`] : []),
    footer(r.history),
  ],
  fixes_history: (r) => [
    ...table((r.symbols as Json[]).map((s) => [`${s.fixes} fixes`, `of ${s.commits}`, s.qual_name, at(s), s.recent[0] ? commit(s.recent[0]) : ''])),
    ...more(r.symbols.length, r.total),
    `${formatCount(r.fix_commits)} of ${formatCount(r.commits)} commits read as fixes`,
    footer(r.history),
  ],
  releases: (r) => [
    ...(r.symbol
      ? [`${r.symbol.qual_name}: introduced in ${r.symbol.introduced_in ?? '(unreleased)'}, last changed in ${r.symbol.last_changed_in ?? '(unreleased)'}, ${r.symbol.unreleased_commits} unreleased commits`]
      : []),
    ...table((r.releases as Json[]).map((x) => [x.tag, x.date, x.on_mainline ? `${x.commits} commits` : 'off mainline', `${x.files_changed} files`, `${x.symbols_changed} symbols`])),
    ...more(r.releases.length, r.total),
    `unreleased: ${formatCount(r.unreleased_commits)} commits, ${formatCount(r.unreleased_symbols)} symbols`,
    footer(r.history),
  ],
};
