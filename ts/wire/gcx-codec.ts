/**
 * The GCX1 grammar: sections of tab-separated rows under a one-line header.
 *
 * ```
 * GCX1 tool=<section> <key=value sorted by key>… fields=<f1>,<f2>,…
 * <cell>\t<cell>…
 * ```
 *
 * Cells escape `\` as `\\`, TAB as `\t` and LF as `\n`; CR is stripped on encode (the format
 * is line-based and CRLF transports would otherwise corrupt it). On decode any other `\x` reads as
 * `x`, and a lone `\` ending a cell reads as nothing. The encoder relies on both: a row whose cells
 * are all empty is written as `\` (a blank line would be skipped), and a first cell that starts
 * with `#` or `GCX` gets its first character escaped so it is not read as a comment or a header.
 * Trailing empty cells are left out (they decode as `""`).
 */

/** The only version tag this codec reads and writes. */
export const GCX_VERSION = 'GCX1';

/** One decoded (or to-be-encoded) section: its name (`tool=`), header meta, field names and rows. */
export interface GcxSection {
  name: string;
  /** Header pairs besides `tool` and `fields` (e.g. `rows`, `total`, `truncated`), values unescaped. */
  meta: Record<string, string>;
  fields: string[];
  /** One array per row, each exactly `fields.length` long after decoding. */
  rows: string[][];
}

/** A payload that does not follow the GCX1 grammar; `line` is 1-based (0 when it is about the whole text). */
export class GcxDecodeError extends Error {
  override name = 'GcxDecodeError';
  constructor(
    message: string,
    readonly line: number,
  ) {
    super(line > 0 ? `GCX line ${line}: ${message}` : message);
  }
}

/** A payload in another GCX version (`GCX2`, …): the caller should ask for JSON instead. */
export class GcxVersionError extends GcxDecodeError {
  override name = 'GcxVersionError';
  constructor(
    readonly version: string,
    line: number,
  ) {
    super(`unsupported wire format version ${version}: this decoder reads ${GCX_VERSION} only; request the JSON format instead`, line);
  }
}

/** A header line: any `GCX<digits>` tag followed by a space or the end of the line. */
const HEADER = /^GCX(\d+)(?: |$)/;
/** Field names, section names and meta keys: non-empty, no whitespace, no `,` `=` `\`. */
const TOKEN = /^[^\s,=\\]+$/;

/** Whether `s` can be a field name, section name or meta key. */
export function isGcxToken(s: string): boolean {
  return TOKEN.test(s);
}

/** Escapes one cell or meta value (CR is dropped, see the module doc). */
export function escapeGcxValue(value: string): string {
  let out = '';
  for (const ch of value) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\n') out += '\\n';
    else if (ch !== '\r') out += ch;
  }
  return out;
}

/** Reverses `escapeGcxValue`; unknown escapes read as the escaped character, a dangling `\` as nothing. */
export function unescapeGcxValue(text: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch !== '\\') {
      out += ch;
      continue;
    }
    i++;
    if (i >= text.length) break;
    const next = text[i]!;
    out += next === 't' ? '\t' : next === 'n' ? '\n' : next;
  }
  return out;
}

/** One row line: escaped cells, trailing empties dropped, first character guarded (see the module doc). */
function rowLine(cells: readonly string[]): string {
  let end = cells.length;
  while (end > 0 && cells[end - 1] === '') end--;
  if (end === 0) return '\\';
  const escaped = cells.slice(0, end).map(escapeGcxValue);
  const first = escaped[0]!;
  if (first.startsWith('#') || first.startsWith('GCX')) escaped[0] = `\\${first}`;
  return escaped.join('\t');
}

/** Serialises sections; throws `TypeError` on names, fields or meta the grammar cannot carry. */
export function writeGcx(sections: readonly GcxSection[]): string {
  let out = '';
  for (const section of sections) {
    if (!isGcxToken(section.name)) throw new TypeError(`GCX section name ${JSON.stringify(section.name)} is not a token`);
    if (section.fields.length === 0) throw new TypeError(`GCX section ${section.name} has no fields`);
    for (const field of section.fields) {
      if (!isGcxToken(field)) throw new TypeError(`GCX field name ${JSON.stringify(field)} in section ${section.name} is not a token`);
    }
    if (new Set(section.fields).size !== section.fields.length) throw new TypeError(`GCX section ${section.name} repeats a field name`);
    let header = `${GCX_VERSION} tool=${section.name}`;
    for (const key of Object.keys(section.meta).sort(byCodeUnit)) {
      const value = section.meta[key]!;
      if (key === 'tool' || key === 'fields' || !isGcxToken(key)) throw new TypeError(`GCX meta key ${JSON.stringify(key)} is reserved or not a token`);
      if (/\s/.test(value)) throw new TypeError(`GCX meta ${key} holds whitespace; such values belong in rows`);
      header += ` ${key}=${escapeGcxValue(value)}`;
    }
    out += `${header} fields=${section.fields.join(',')}\n`;
    for (const row of section.rows) {
      if (row.length > section.fields.length) {
        throw new TypeError(`GCX section ${section.name}: a row has ${row.length} cells for ${section.fields.length} fields`);
      }
      out += `${rowLine(row)}\n`;
    }
  }
  return out;
}

/** Plain code-unit order, so meta order never depends on the locale. */
export function byCodeUnit(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Parses one header line (already known to start with `GCX1`). */
function parseHeader(line: string, lineNo: number): GcxSection {
  const pairs = new Map<string, string>();
  for (const token of line.split(' ').slice(1)) {
    if (token === '') continue;
    const eq = token.indexOf('=');
    if (eq <= 0) throw new GcxDecodeError(`header item ${JSON.stringify(token)} is not key=value`, lineNo);
    const key = token.slice(0, eq);
    if (pairs.has(key)) throw new GcxDecodeError(`header repeats ${key}=`, lineNo);
    pairs.set(key, token.slice(eq + 1));
  }
  const name = pairs.get('tool');
  if (name === undefined || name === '') throw new GcxDecodeError('header has no tool=', lineNo);
  const fieldList = pairs.get('fields');
  if (fieldList === undefined || fieldList === '') throw new GcxDecodeError(`header of ${name} has no fields=`, lineNo);
  const fields = fieldList.split(',');
  if (fields.some((f) => f === '')) throw new GcxDecodeError(`fields= of ${name} has an empty name`, lineNo);
  if (new Set(fields).size !== fields.length) throw new GcxDecodeError(`fields= of ${name} repeats a name`, lineNo);
  const meta: Record<string, string> = {};
  for (const [key, value] of pairs) if (key !== 'tool' && key !== 'fields') meta[key] = unescapeGcxValue(value);
  return { name, meta, fields, rows: [] };
}

/** A declared `rows=` that disagrees with the rows read means the payload was cut or spliced. */
function checkRowCount(section: GcxSection, headerLine: number): void {
  const declared = section.meta.rows;
  if (declared !== undefined && /^\d+$/.test(declared) && Number(declared) !== section.rows.length) {
    throw new GcxDecodeError(`section ${section.name} declares rows=${declared} but holds ${section.rows.length}`, headerLine);
  }
}

/**
 * Parses a GCX1 payload into its sections. CR characters are ignored, blank lines and `#` comment
 * lines are skipped, missing trailing cells read as `""`. Throws `GcxVersionError` for another
 * version tag and `GcxDecodeError` for anything else off-grammar (extra cells, a row before any
 * header, a header without `tool=`/`fields=`, a `rows=` count that does not match, no section).
 */
export function decodeGcx(text: string): GcxSection[] {
  const sections: GcxSection[] = [];
  let current: GcxSection | undefined;
  let currentLine = 0;
  const lines = text.replace(/\r/g, '').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const lineNo = i + 1;
    if (line === '' || line.startsWith('#')) continue;
    const header = HEADER.exec(line);
    if (header) {
      if (`GCX${header[1]}` !== GCX_VERSION) throw new GcxVersionError(`GCX${header[1]}`, lineNo);
      if (current) checkRowCount(current, currentLine);
      current = parseHeader(line, lineNo);
      currentLine = lineNo;
      sections.push(current);
      continue;
    }
    if (!current) throw new GcxDecodeError(`row before any ${GCX_VERSION} header`, lineNo);
    const cells = line.split('\t');
    if (cells.length > current.fields.length) {
      throw new GcxDecodeError(
        `row has ${cells.length} cells but section ${current.name} has ${current.fields.length} fields (${current.fields.join(',')})`,
        lineNo,
      );
    }
    const row = cells.map(unescapeGcxValue);
    while (row.length < current.fields.length) row.push('');
    current.rows.push(row);
  }
  if (current) checkRowCount(current, currentLine);
  if (sections.length === 0) throw new GcxDecodeError(`no ${GCX_VERSION} section in the payload`, 0);
  return sections;
}

/** The rows of a section as objects keyed by its field names. */
export function gcxToObjects(section: GcxSection): Record<string, string>[] {
  return section.rows.map((row) => Object.fromEntries(section.fields.map((field, i) => [field, row[i] ?? ''])));
}
