/**
 * Symbol-centred context: `batch_symbols` (several symbols in one call, failures per row) and
 * `get_editing_context` (everything needed before editing one symbol, packed under a budget).
 */
import type { GetCallChainResult, GetCallersResult, GetSymbolResult, NodeSummary, Origin } from '../engine/engine';
import { ContextReader, jsonBytes, rowError, type RowError, type SourceSlice } from './context-common';
import { findTestTargets, type TestTargets } from './context-tests';
import { ToolInputError } from './registry';
import { compressBodies, fidelityOf, type Fidelity, type FidelityRule } from './source-shape';

/** One `batch_symbols` row: the `get_symbol` answer (flattened in), or why it could not be read. */
export interface BatchRow extends Partial<GetSymbolResult> {
  /** The id as it was asked for. */
  id: string;
  source?: SourceSlice;
  /** Present (true) when the source was wanted but the byte budget was already spent. */
  source_omitted?: boolean;
  error?: RowError;
}

/** The `batch_symbols` result. */
export interface BatchResult {
  symbols: BatchRow[];
  /** Rows that failed. */
  errors: number;
  /** Present (true) when some source was cut or left out by `max_bytes`. */
  truncated?: boolean;
}

/** Several symbols at once; an unknown or ambiguous id fails its own row, not the call. */
export function batchSymbols(reader: ContextReader, ids: readonly string[], includeSource: boolean, maxBytes: number): BatchResult {
  let left = maxBytes;
  let truncated = false;
  let errors = 0;
  const symbols = ids.map((id): BatchRow => {
    let found: GetSymbolResult;
    try {
      found = reader.symbol(id);
    } catch (error) {
      errors++;
      return { id, error: rowError(error) };
    }
    if (!includeSource) return { id, ...found };
    const s = found.node;
    if (!s.file_path || s.start_line === 0 || s.external) return { id, ...found };
    if (left <= 0) {
      truncated = true;
      return { id, ...found, source_omitted: true };
    }
    const source = reader.symbolSource(s, left);
    if (!source) {
      truncated = true;
      return { id, ...found, source_omitted: true };
    }
    left -= Buffer.byteLength(source.text, 'utf8');
    if (source.truncated) truncated = true;
    return { id, ...found, source };
  });
  return { symbols, errors, ...(truncated ? { truncated: true } : {}) };
}

/** A caller of the edited symbol. */
export interface EditCaller {
  id: string;
  qualified: string;
  kind: string;
  path: string;
  /** Call-site lines in `path`. */
  lines: number[];
  origin: Origin;
  /** Present (true) for test code. */
  test?: boolean;
}

/** A callee of the edited symbol. */
export interface EditCallee {
  id: string;
  qualified: string;
  kind: string;
  path: string;
  /** First call-site line in the edited symbol. */
  line: number;
  origin: Origin;
}

/** An import of the edited symbol's file. */
export interface EditImport {
  line: number;
  module: string;
  status: string;
  /** Names the statement binds, when they resolved. */
  names?: string[];
}

/** The `get_editing_context` result. */
export interface EditingContext {
  symbol: NodeSummary;
  doc?: string;
  visibility?: string;
  /** Qualified name of the enclosing symbol. */
  parent?: string;
  source?: SourceSlice;
  /** How the source was shaped when not in full: `compress` (bodies stubbed) or `omit`. */
  source_fidelity?: Fidelity;
  /** Caller/callee rows dropped because their files matched an `omit` fidelity glob. */
  fidelity_omitted_rows?: number;
  callers: EditCaller[];
  /** Callers before any cut. */
  callers_total: number;
  /** Why the caller list must not be taken at face value, when it must not. */
  callers_caveat?: string;
  callees: EditCallee[];
  callees_total: number;
  /** Calls the resolver could not bind (`name`, or `*.name` for member calls). */
  unresolved_calls?: string[];
  tests: Pick<TestTargets, 'tests' | 'test_files' | 'commands' | 'note'>;
  imports: EditImport[];
  max_bytes: number;
  used_bytes: number;
  truncated: boolean;
  /** What the budget cut, per section (rows, or source lines). */
  cut?: Record<string, number>;
}

/** Share of the budget the source may always claim before the relation lists fill the rest. */
const SOURCE_SHARE = 0.6;

/** Cuts a slice to its first lines totalling at most `bytes` (null when not even one fits). */
function cutSlice(slice: SourceSlice, bytes: number): SourceSlice | null {
  const lines = slice.text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  let text = '';
  let n = 0;
  for (const line of lines) {
    if (Buffer.byteLength(text, 'utf8') + Buffer.byteLength(line, 'utf8') + 1 > bytes) break;
    text += `${line}\n`;
    n++;
  }
  if (n === 0) return null;
  return { start_line: slice.start_line, end_line: slice.start_line + n - 1, text, truncated: true };
}

/**
 * The editing context of one symbol. Sections are filled in priority order under the byte
 * budget: the symbol itself always; its source (which may take at least 60% of the budget, cut
 * at a line); then callers, tests, callees and the file's imports, row by row.
 */
export function editingContext(
  reader: ContextReader,
  id: string,
  budget: number,
  includeSource: boolean,
  fidelity: { compress: boolean; rules: readonly FidelityRule[] } = { compress: false, rules: [] },
): EditingContext {
  const found = reader.symbol(id);
  const s = found.node;
  if (s.kind === 'file' || s.kind === 'package' || s.kind === 'module') {
    throw new ToolInputError(
      'invalid_argument',
      `get_editing_context: ${s.id} is a ${s.kind}; pass a symbol (function, method, type, …) — get_file_summary and read_file cover files`,
    );
  }
  const callers: GetCallersResult = reader.callers(s.id, 1, 100);
  const chain: GetCallChainResult = reader.callees(s.id, 100);
  const byId = new Map(chain.nodes.map((n) => [n.node.id, n.node]));
  const allCallers: EditCaller[] = callers.callers.map((c) => ({
    id: c.caller.id,
    qualified: c.caller.qual_name,
    kind: c.caller.kind,
    path: c.path,
    lines: c.lines,
    origin: c.origin,
    ...(reader.isTestCode(c.caller) ? { test: true } : {}),
  }));
  const allCallees: EditCallee[] = chain.calls
    .filter((c) => c.from === s.id)
    .map((c) => {
      const n = byId.get(c.to);
      return { id: c.to, qualified: n?.qual_name ?? c.to, kind: n?.kind ?? 'function', path: n?.file_path ?? '', line: c.line, origin: c.origin };
    });
  const unresolved = [...new Set((chain.unresolved ?? []).filter((u) => u.from === s.id).map((u) => u.target.replace(/^unresolved::/, '')))];
  const targets = findTestTargets(reader, { symbol: s });
  let allImports: EditImport[] = [];
  if (s.file_path) {
    allImports = reader.fileSummary(s.file_path).imports.map((i) => ({
      line: i.line,
      module: i.module,
      status: i.status,
      ...(i.symbols && i.symbols.length > 0 ? { names: i.symbols.map((x) => x.slice(x.lastIndexOf('::') + 2)) } : {}),
    }));
  }
  // Fidelity: `omit` drops the source and rows from matching files; `compress` stubs bodies.
  const tierOf = (p: string): Fidelity => fidelityOf(fidelity.rules, p, fidelity.compress ? 'compress' : 'full');
  const sourceTier = s.file_path ? tierOf(s.file_path) : 'full';
  let fullSource = includeSource && sourceTier !== 'omit' ? reader.symbolSource(s, 64 * 1024 * 1024) : null;
  if (fullSource && sourceTier === 'compress') {
    const lines = fullSource.text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    const padded = [...Array(fullSource.start_line - 1).fill(''), ...lines];
    const text = compressBodies(padded, fullSource.start_line, fullSource.end_line, reader.fileSymbols(s.file_path)).map((l) => `${l}\n`).join('');
    fullSource = { ...fullSource, text };
  }
  const kept = <T extends { path: string }>(rows: T[]): T[] => rows.filter((r) => !r.path || tierOf(r.path) !== 'omit');
  const fidelityOmitted = allCallers.length + allCallees.length - kept(allCallers).length - kept(allCallees).length;
  allCallers.splice(0, allCallers.length, ...kept(allCallers));
  allCallees.splice(0, allCallees.length, ...kept(allCallees));

  const out: EditingContext = {
    symbol: s,
    ...(found.doc ? { doc: found.doc } : {}),
    ...(found.visibility ? { visibility: found.visibility } : {}),
    ...(found.parent ? { parent: found.parent.qual_name } : {}),
    // Declared here so the source sits before the lists in the JSON; absent (undefined) until set.
    source: undefined,
    callers: [],
    callers_total: callers.total,
    ...(callers.caveat ? { callers_caveat: `${callers.caveat.class}: ${callers.caveat.message}` } : {}),
    callees: [],
    callees_total: allCallees.length,
    ...(unresolved.length > 0 ? { unresolved_calls: unresolved } : {}),
    tests: { tests: [], test_files: [], commands: targets.commands, ...(targets.note ? { note: targets.note } : {}) },
    imports: [],
    ...(sourceTier !== 'full' ? { source_fidelity: sourceTier } : {}),
    ...(fidelityOmitted > 0 ? { fidelity_omitted_rows: fidelityOmitted } : {}),
    max_bytes: budget,
    used_bytes: 0,
    truncated: false,
  };
  const cut: Record<string, number> = {};
  // Measured as the answer will be sent: flagged truncated, with the cut record (one more entry
  // at most) and a seven-digit used_bytes.
  const size = (): number => jsonBytes({ ...out, truncated: true, cut: { ...cut, source_lines: 99999 }, used_bytes: 9999999 });

  if (fullSource) {
    // The whole relation block, to know how much of the budget the source may take.
    const relations = jsonBytes({ a: allCallers, b: allCallees, c: targets.tests, d: targets.test_files, e: allImports });
    const room = Math.max(SOURCE_SHARE * (budget - size()), budget - size() - relations);
    let slice: SourceSlice | null = fullSource;
    out.source = slice;
    if (size() > budget || jsonBytes(slice) > room) {
      slice = cutSlice(fullSource, room);
      // JSON escaping makes text larger than its bytes: shrink until the whole fits.
      while (slice && jsonBytes(slice) > room) slice = cutSlice(slice, Buffer.byteLength(slice.text, 'utf8') - 80);
      if (slice) out.source = slice;
      else delete out.source;
      cut.source_lines = fullSource.end_line - (slice ? slice.end_line : fullSource.start_line - 1);
    }
  }
  const fill = <T>(name: string, rows: readonly T[], into: T[]): void => {
    for (let i = 0; i < rows.length; i++) {
      into.push(rows[i]!);
      if (size() > budget) {
        into.pop();
        cut[name] = rows.length - i;
        return;
      }
    }
  };
  fill('callers', allCallers, out.callers);
  fill('tests', targets.tests, out.tests.tests);
  fill('test_files', targets.test_files, out.tests.test_files);
  fill('callees', allCallees, out.callees);
  fill('imports', allImports, out.imports);
  // A budget too small for even the source's cut record: drop rows from the least useful end.
  const sections: [string, unknown[]][] = [
    ['imports', out.imports],
    ['callees', out.callees],
    ['test_files', out.tests.test_files],
    ['tests', out.tests.tests],
    ['callers', out.callers],
  ];
  for (const [name, rows] of sections) {
    while (rows.length > 0 && size() > budget) {
      rows.pop();
      cut[name] = (cut[name] ?? 0) + 1;
    }
  }
  out.truncated = Object.keys(cut).length > 0;
  if (out.truncated) out.cut = cut;
  // Twice: the count's own digits are part of what it counts.
  out.used_bytes = jsonBytes(out);
  out.used_bytes = jsonBytes(out);
  return out;
}
