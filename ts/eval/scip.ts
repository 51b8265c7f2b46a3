/**
 * A reader of SCIP indexes (the protobuf files `scip-typescript`, `scip-python`, `scip-go` write)
 * and of SemanticDB documents (what the `semanticdb-javac` compiler plugin writes, SCIP's
 * ancestor: same symbol grammar), decoding only the fields the call-edge gold needs. Hand-rolled
 * on purpose: the schema parts read here are small and stable, and a protobuf runtime would be a
 * dependency for two file formats.
 */

/** One occurrence of a symbol in a document. */
export interface ScipOccurrence {
  /** 0-based [startLine, startChar, endLine, endChar]. */
  range: [number, number, number, number];
  symbol: string;
  /** Bit set of SymbolRole (1 = definition, 2 = import, 4 = write, 8 = read). */
  roles: number;
  /** The range of the whole definition (body included) when the indexer records it. */
  enclosing?: [number, number, number, number];
}

/** What an indexer says about one symbol it defines. */
export interface ScipSymbolInfo {
  symbol: string;
  kind: number;
  /** Symbols this one implements or overrides (`is_implementation`). */
  implements: string[];
}

/** One source file of the index. */
export interface ScipDocument {
  relativePath: string;
  language: string;
  occurrences: ScipOccurrence[];
  symbols: ScipSymbolInfo[];
}

/** The decoded index. */
export interface ScipIndex {
  toolName: string;
  projectRoot: string;
  documents: ScipDocument[];
}

/** SymbolRole.Definition. */
export const ROLE_DEFINITION = 1;
/** SymbolRole.Import. */
export const ROLE_IMPORT = 2;

/** A cursor over protobuf wire bytes. */
class Reader {
  pos: number;
  constructor(
    readonly buf: Uint8Array,
    start = 0,
    readonly end = buf.length,
  ) {
    this.pos = start;
  }

  varint(): number {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (this.pos >= this.end) throw new Error('SCIP index is truncated (a varint runs past the end)');
      const byte = this.buf[this.pos++]!;
      // Past 2^53 precision is lost; SCIP's numbers (lines, columns, lengths, enums) stay far below.
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
      if (shift > 63) throw new Error('SCIP index is corrupt (a varint longer than 10 bytes)');
    }
  }

  /** The bounds of a length-delimited field's payload, leaving the cursor after it. */
  bytes(): [number, number] {
    const length = this.varint();
    const start = this.pos;
    if (start + length > this.end) throw new Error('SCIP index is truncated (a field runs past its message)');
    this.pos = start + length;
    return [start, start + length];
  }

  skip(wire: number): void {
    if (wire === 0) this.varint();
    else if (wire === 1) this.pos += 8;
    else if (wire === 2) this.bytes();
    else if (wire === 5) this.pos += 4;
    else throw new Error(`SCIP index is corrupt (wire type ${wire} at byte ${this.pos})`);
  }
}

const decoder = new TextDecoder();
const text = (buf: Uint8Array, [start, end]: [number, number]): string => decoder.decode(buf.subarray(start, end));

/** Reads the fields of one message: `visit(field, wire, reader)` returns false for fields it does not read. */
function fields(buf: Uint8Array, [start, end]: [number, number], visit: (field: number, wire: number, r: Reader) => boolean): void {
  const r = new Reader(buf, start, end);
  while (r.pos < r.end) {
    const key = r.varint();
    const field = Math.floor(key / 8);
    const wire = key & 7;
    if (!visit(field, wire, r)) r.skip(wire);
  }
}

/** A repeated int32 field, packed or not. */
function int32s(r: Reader, wire: number, into: number[]): void {
  if (wire === 2) {
    const [start, end] = r.bytes();
    const inner = new Reader(r.buf, start, end);
    while (inner.pos < inner.end) into.push(inner.varint() | 0);
  } else into.push(r.varint() | 0);
}

/** A SCIP range (3 numbers on one line, 4 across lines) as [startLine, startChar, endLine, endChar]. */
function toRange(values: number[]): [number, number, number, number] | undefined {
  if (values.length === 3) return [values[0]!, values[1]!, values[0]!, values[2]!];
  if (values.length === 4) return [values[0]!, values[1]!, values[2]!, values[3]!];
  return undefined;
}

function occurrence(buf: Uint8Array, span: [number, number]): ScipOccurrence | null {
  const range: number[] = [];
  const enclosing: number[] = [];
  let symbol = '';
  let roles = 0;
  fields(buf, span, (field, wire, r) => {
    if (field === 1) int32s(r, wire, range);
    else if (field === 2 && wire === 2) symbol = text(buf, r.bytes());
    else if (field === 3 && wire === 0) roles = r.varint();
    else if (field === 7) int32s(r, wire, enclosing);
    else return false;
    return true;
  });
  const decoded = toRange(range);
  if (!decoded || !symbol) return null;
  const around = toRange(enclosing);
  return { range: decoded, symbol, roles, ...(around ? { enclosing: around } : {}) };
}

function relationshipImplements(buf: Uint8Array, span: [number, number]): string | null {
  let symbol = '';
  let isImplementation = false;
  fields(buf, span, (field, wire, r) => {
    if (field === 1 && wire === 2) symbol = text(buf, r.bytes());
    else if (field === 3 && wire === 0) isImplementation = r.varint() !== 0;
    else return false;
    return true;
  });
  return isImplementation && symbol ? symbol : null;
}

function symbolInfo(buf: Uint8Array, span: [number, number]): ScipSymbolInfo {
  const info: ScipSymbolInfo = { symbol: '', kind: 0, implements: [] };
  fields(buf, span, (field, wire, r) => {
    if (field === 1 && wire === 2) info.symbol = text(buf, r.bytes());
    else if (field === 4 && wire === 2) {
      const target = relationshipImplements(buf, r.bytes());
      if (target) info.implements.push(target);
    } else if (field === 5 && wire === 0) info.kind = r.varint();
    else return false;
    return true;
  });
  return info;
}

function document(buf: Uint8Array, span: [number, number]): ScipDocument {
  const doc: ScipDocument = { relativePath: '', language: '', occurrences: [], symbols: [] };
  fields(buf, span, (field, wire, r) => {
    if (wire !== 2) return false;
    if (field === 1) doc.relativePath = text(buf, r.bytes());
    else if (field === 2) {
      const occ = occurrence(buf, r.bytes());
      if (occ) doc.occurrences.push(occ);
    } else if (field === 3) doc.symbols.push(symbolInfo(buf, r.bytes()));
    else if (field === 4) doc.language = text(buf, r.bytes());
    else return false;
    return true;
  });
  return doc;
}

/** Decodes a whole SCIP index; throws naming what is wrong when the bytes are not one. */
export function readScip(buf: Uint8Array): ScipIndex {
  const index: ScipIndex = { toolName: '', projectRoot: '', documents: [] };
  fields(buf, [0, buf.length], (field, wire, r) => {
    if (wire !== 2) return false;
    if (field === 1) {
      fields(buf, r.bytes(), (f, w, m) => {
        if (f === 2 && w === 2) {
          fields(buf, m.bytes(), (tf, tw, t) => {
            if (tf !== 1 || tw !== 2) return false;
            index.toolName = text(buf, t.bytes());
            return true;
          });
        } else if (f === 3 && w === 2) index.projectRoot = text(buf, m.bytes());
        else return false;
        return true;
      });
    } else if (field === 2) index.documents.push(document(buf, r.bytes()));
    else return false;
    return true;
  });
  return index;
}

/** One descriptor of a SCIP symbol: its name and what it is (`/` namespace, `#` type, `.` term, `().` method, …). */
export interface ScipDescriptor {
  name: string;
  suffix: 'namespace' | 'type' | 'term' | 'method' | 'type_parameter' | 'parameter' | 'meta' | 'macro';
}

/** A parsed global symbol: `scheme manager package version descriptors…`; null for `local N` symbols. */
export interface ScipSymbol {
  package: string;
  descriptors: ScipDescriptor[];
}

/** Parses a SCIP symbol string (escaped names in backticks included); null for locals or what does not parse. */
export function parseScipSymbol(symbol: string): ScipSymbol | null {
  if (symbol.startsWith('local ')) return null;
  // Four space-separated header fields (a doubled space escapes a space inside one).
  let pos = 0;
  const header: string[] = [];
  while (header.length < 4) {
    let field = '';
    for (;;) {
      if (pos >= symbol.length) return null;
      const ch = symbol[pos]!;
      if (ch === ' ') {
        if (symbol[pos + 1] === ' ') {
          field += ' ';
          pos += 2;
          continue;
        }
        pos += 1;
        break;
      }
      field += ch;
      pos += 1;
    }
    header.push(field);
  }
  const descriptors: ScipDescriptor[] = [];
  while (pos < symbol.length) {
    let name = '';
    if (symbol[pos] === '`') {
      pos += 1;
      for (;;) {
        if (pos >= symbol.length) return null;
        if (symbol[pos] === '`') {
          if (symbol[pos + 1] === '`') {
            name += '`';
            pos += 2;
            continue;
          }
          pos += 1;
          break;
        }
        name += symbol[pos++];
      }
    } else if (symbol[pos] === '(' || symbol[pos] === '[') {
      const close = symbol[pos] === '(' ? ')' : ']';
      const end = symbol.indexOf(close, pos);
      if (end < 0) return null;
      descriptors.push({ name: symbol.slice(pos + 1, end), suffix: close === ')' ? 'parameter' : 'type_parameter' });
      pos = end + 1;
      continue;
    } else {
      while (pos < symbol.length && /[\w$+\-]/.test(symbol[pos]!)) name += symbol[pos++];
    }
    const ch = symbol[pos];
    if (ch === '/') descriptors.push({ name, suffix: 'namespace' });
    else if (ch === '#') descriptors.push({ name, suffix: 'type' });
    else if (ch === '.') descriptors.push({ name, suffix: 'term' });
    else if (ch === ':') descriptors.push({ name, suffix: 'meta' });
    else if (ch === '!') descriptors.push({ name, suffix: 'macro' });
    else if (ch === '(') {
      const end = symbol.indexOf(').', pos);
      if (end < 0) return null;
      descriptors.push({ name, suffix: 'method' });
      pos = end + 2;
      continue;
    } else return null;
    pos += 1;
  }
  return { package: `${header[0]} ${header[1]} ${header[2]} ${header[3]}`, descriptors };
}

/** SemanticDB's SymbolOccurrence.Role.DEFINITION (REFERENCE is 1; 3 is a synthetic definition). */
const SEMANTICDB_DEFINITION = 2;

/** A SemanticDB symbol in SCIP's spelling: globals get SCIP's four header fields, `localN` becomes `local N`. */
function fromSemanticdbSymbol(symbol: string): string {
  if (symbol.startsWith('local')) return `local ${symbol.slice(5)}`;
  return `semanticdb maven . . ${symbol}`;
}

function semanticdbRange(buf: Uint8Array, span: [number, number]): [number, number, number, number] {
  const range: [number, number, number, number] = [0, 0, 0, 0];
  fields(buf, span, (field, wire, r) => {
    if (wire !== 0 || field < 1 || field > 4) return false;
    range[field - 1] = r.varint() | 0;
    return true;
  });
  return range;
}

function semanticdbOccurrence(buf: Uint8Array, span: [number, number]): ScipOccurrence | null {
  let range: [number, number, number, number] | undefined;
  let symbol = '';
  let role = 0;
  fields(buf, span, (field, wire, r) => {
    if (field === 1 && wire === 2) range = semanticdbRange(buf, r.bytes());
    else if (field === 2 && wire === 2) symbol = text(buf, r.bytes());
    else if (field === 3 && wire === 0) role = r.varint();
    else return false;
    return true;
  });
  if (!range || !symbol) return null;
  return { range, symbol: fromSemanticdbSymbol(symbol), roles: role === SEMANTICDB_DEFINITION ? ROLE_DEFINITION : 8 };
}

function semanticdbSymbolInfo(buf: Uint8Array, span: [number, number]): ScipSymbolInfo {
  const info: ScipSymbolInfo = { symbol: '', kind: 0, implements: [] };
  fields(buf, span, (field, wire, r) => {
    if (field === 1 && wire === 2) info.symbol = fromSemanticdbSymbol(text(buf, r.bytes()));
    else if (field === 3 && wire === 0) info.kind = r.varint();
    else if (field === 19 && wire === 2) info.implements.push(fromSemanticdbSymbol(text(buf, r.bytes())));
    else return false;
    return true;
  });
  return info;
}

/**
 * Decodes one SemanticDB `TextDocuments` file into SCIP documents (paths are the documents'
 * `uri`, relative to the compiler plugin's `-sourceroot`); throws naming what is wrong when the
 * bytes are not one.
 */
export function readSemanticdb(buf: Uint8Array): ScipDocument[] {
  const documents: ScipDocument[] = [];
  fields(buf, [0, buf.length], (field, wire, r) => {
    if (field !== 1 || wire !== 2) return false;
    const doc: ScipDocument = { relativePath: '', language: 'java', occurrences: [], symbols: [] };
    fields(buf, r.bytes(), (f, w, m) => {
      if (w !== 2) return false;
      if (f === 2) doc.relativePath = text(buf, m.bytes());
      else if (f === 5) doc.symbols.push(semanticdbSymbolInfo(buf, m.bytes()));
      else if (f === 6) {
        const occ = semanticdbOccurrence(buf, m.bytes());
        if (occ) doc.occurrences.push(occ);
      } else return false;
      return true;
    });
    documents.push(doc);
    return true;
  });
  return documents;
}
